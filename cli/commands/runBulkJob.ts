import {
  BulkJobRunner,
  MemoryCheckpointStore,
  RETRYABLE_STATUSES,
  SpellError,
  SpellHttpError,
  SpellRequestTooLargeError,
  startedNothing,
  type BulkJobResult,
  type Checkpoint,
  type JobFailure,
  type SpellClient,
} from "spellrun";
import { stdoutSharesTerminal } from "../job/stdoutSharesTerminal.js";
import { emptyRowResult, isEmptyRow } from "../table/emptyRow.js";
import { CliError } from "../errors/CliError.js";
import { RunBudgetError } from "../errors/RunBudgetError.js";
import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import type { Journal } from "../job/Journal.js";
import { JournalCheckpointStore } from "../job/JournalCheckpointStore.js";
import type { JobRecord } from "../job/JournalRecord.js";
import type { JobRow } from "../job/JobRow.js";
import { OrderedOutputWriter } from "../job/OrderedOutputWriter.js";
import type { OutputFile } from "../table/OutputFile.js";
import type { OutputColumns } from "../table/OutputColumns.js";
import { ProgressReporter } from "../job/ProgressReporter.js";
import { terminalText } from "../errors/terminalText.js";
import { commandAsRun } from "../errors/commandAsRun.js";
import { nextStepCommand, type NextStep } from "./nextStep.js";
import { newRunsOnResume, newRunsOnRetry } from "../job/newRuns.js";
import { replayJournal } from "../job/replayJournal.js";
import { describeServiceError } from "../errors/describeServiceError.js";
import { toSpellInputs } from "../table/InputMapping.js";
import { listenForStop, type StopReason } from "../job/stopRequests.js";

/**
 * How a job reports itself on stderr.
 *
 * ## Example
 * ```ts
 * const display: JobDisplay = { quiet: false, progressEveryMs: 10_000 };
 * ```
 */
export interface JobDisplay {
  quiet: boolean;
  /** Interval of the plain progress lines when stderr is not a terminal. */
  progressEveryMs: number;
}

/**
 * A command-line job: the core's engine over the journal file and the ordered output.
 *
 * ## Example
 * ```ts
 * const options: CommandJob = { client, job, rows, columns, journal, output, maxWindows: 8, rerunUnknown: false };
 * ```
 */
export interface CommandJob {
  client: SpellClient;
  job: JobRecord;
  rows: AsyncIterable<JobRow>;
  /** The input's columns (known once its header was read). */
  columns: () => string[];
  /** Absent when the output is stdout (then the job cannot be resumed). */
  journal: Journal | undefined;
  output: OutputFile;
  /** The layout of a header already written, or to write first (`writeHeader`). */
  layout?: OutputColumns;
  writeHeader?: boolean;
  /** What the journal knows (resume). */
  resume?: Checkpoint;
  /** Send again windows whose bulkStart may have reached the service (`--rerun-unknown`). */
  rerunUnknown: boolean;
  /** Windows held at once. */
  maxWindows: number;
  /**
   * What the printed next steps need besides the journal: the job as the user named its input,
   * and the service flags given on this command line (see `nextStepCommand`).
   */
  next?: Pick<NextStep, "job" | "connection">;
}

/**
 * Runs a job as a command: progress on stderr, Ctrl-C handling (the first press cancels the
 * unfinished groups, keeps what finished and writes every row; a second press exits at once,
 * cursor shown again; SIGTERM, SIGHUP and a closed stdout pipe are handled the same way), a
 * closing summary that says what the failure means for money and which command comes next, and
 * the exit code (see `EXIT_CODES`).
 *
 * ## Example
 * ```ts
 * process.exitCode = await runBulkJob(options, { quiet: false, progressEveryMs: 10_000 });
 * ```
 * @param options the job
 * @param display progress settings
 * @return the exit code
 */
export async function runBulkJob(options: CommandJob, display: JobDisplay): Promise<ExitCode> {
  const { job, journal, output } = options;
  const writer = new OrderedOutputWriter({
    job,
    output,
    journal,
    columns: options.columns,
    ...(options.layout ? { layout: options.layout } : {}),
    ...(options.writeHeader ? { writeHeader: true } : {}),
  });
  // Set when stdin's rows stop at --max-runs (to the rows read, the one past the budget
  // included): the journal's end record says so.
  let atBudget: number | undefined;
  const runner = new BulkJobRunner<JobRow>({
    client: options.client,
    spellId: job.spellId,
    rows: noticeBudgetStop(options.rows, (read) => (atBudget = read)),
    inputsOf: (row) => toSpellInputs(row.values, job.mapping),
    // A row with all its inputs empty is written `skipped`, never sent (nor run by a retry).
    knownResultOf: (row) =>
      row.kept
        ? { status: row.kept.status, outputs: {} }
        : isEmptyRow(toSpellInputs(row.values, job.mapping))
          ? emptyRowResult()
          : undefined,
    windowSize: job.chunkSize,
    maxWindows: options.maxWindows,
    // stdout has no journal: the job lives as long as the process.
    store: journal
      ? new JournalCheckpointStore(
          journal,
          output,
          () => writer.holdsRows(),
          () => atBudget
        )
      : new MemoryCheckpointStore(),
    writer,
    ...(options.resume ? { resume: options.resume } : {}),
    resendMayHaveStarted: options.rerunUnknown,
    unknownRowReason:
      "Its bulkStart may have reached the service, its bulk run id never recorded: not run again (spellrun resume --rerun-unknown starts it again, and may pay for it twice)",
  });
  const reporter = new ProgressReporter({
    quiet: display.quiet,
    everyMs: display.progressEveryMs,
    sharesTerminal: options.output.path === "-" && stdoutSharesTerminal(),
  });
  const progress = () => ({ ...runner.progress(), total: job.total });
  // A few times a second is plenty for a bar or a log line.
  const ticker = setInterval(() => reporter.update(progress()), 100);
  let stopped: StopReason | undefined;
  const restoreTerminal = (): void => reporter.restore();
  // A second request (or process.exit anywhere) must not leave the cursor hidden.
  process.once("exit", restoreTerminal);
  const stop = listenForStop(
    (reason) => {
      if (stopped) {
        // A second request exits at once, with the first one's code.
        restoreTerminal();
        process.exit(stopped.exitCode);
      }
      stopped = reason;
      if (!reason.quiet) {
        // On its own line: the progress line is cleared first (the terminal has echoed ^C into it).
        reporter.note(
          `spellrun: ${STOP_WORDS[reason.cause]}: cancelling the unfinished bulk runs, keeping what finished and writing every row (${reason.cause === "SIGINT" ? "Ctrl-C" : "a second signal"} again exits at once)`
        );
      }
      void runner.cancel();
    },
    { outputIsStdout: output.path === "-" }
  );
  try {
    // A reader already gone (`| true`) stops the job before its first start.
    await stop.ready;
    const result = await runner.run();
    clearInterval(ticker);
    // After a closed output pipe (`-o - | head -1`) nothing is printed: no summary line.
    reporter.stop({ ...progress(), ...refusalOf(result.failures) }, stopped?.quiet === true);
    return report(result, options, display, stopped);
  } finally {
    clearInterval(ticker);
    // The handlers stay after a first request: a second one means "exit now" even if cancels
    // are still on their way (they keep the process alive until the service answers).
    if (!stopped) stop.dispose();
    restoreTerminal();
    journal?.close();
    output.close();
  }
}

/** What each stop request is called in the note printed when it arrives. */
const STOP_WORDS: Record<StopReason["cause"], string> = {
  SIGINT: "Ctrl-C",
  SIGTERM: "SIGTERM received",
  SIGHUP: "SIGHUP received (the terminal closed)",
  EPIPE: "the output pipe closed",
};

function report(
  result: BulkJobResult,
  options: CommandJob,
  display: JobDisplay,
  stopped: StopReason | undefined
): ExitCode {
  const journalPath = options.journal?.path;
  // Messages quote the service and the journal: no control character reaches the terminal.
  const say = (text: string) => process.stderr.write(`spellrun: ${terminalText(text)}\n`);
  const resumeCommand = (extra: string[] = []) =>
    stepCommand(options, "resume", result.rows, extra) ?? "a resume";
  const resumeHint = journalPath
    ? `resume with: ${resumeCommand()}`
    : "the output is stdout, so there is no journal to resume from";
  const retryHint = journalPath
    ? (stepCommand(options, "retry", result.rows) as string)
    : `a run with an output file (-o), then ${commandAsRun()} retry`;
  for (const expired of result.expired) {
    say(
      `the bulk run of ${rowsText(expired)} (${expired.groupId ?? "no id"}) expired at the service: its results are gone and those rows are written "expired"`
    );
  }
  switch (result.outcome) {
    case "incomplete":
    case "complete": {
      const skipped = result.counts.skipped ?? 0;
      const notOk = result.rows - (result.counts.success ?? 0) - skipped;
      const retryable = RETRYABLE_STATUSES.reduce((sum, s) => sum + (result.counts[s] ?? 0), 0);
      if (!display.quiet && stopped?.quiet !== true) {
        say(
          `done, ${result.rows} rows in ${options.output.path === "-" ? "stdout" : options.output.path}` +
            (skipped > 0 ? ` (${skipped} skipped: empty rows, no run started)` : "")
        );
      }
      if (retryable > 0 && stopped?.quiet !== true)
        say(
          `${retryable} rows failed, errored, were cancelled or expired; run them again with: ${retryHint}`
        );
      return notOk > 0 ? EXIT_CODES.someRowsFailed : EXIT_CODES.success;
    }
    case "interrupted":
      if (!stopped?.quiet) {
        say(
          `interrupted; ${result.rows} rows written, the unfinished runs were cancelled (finished ones kept); ${resumeHint}`
        );
      }
      return stopped?.exitCode ?? EXIT_CODES.interrupted;
    case "input-error":
      if (result.error instanceof RunBudgetError) {
        // The budget's own stop, not a bad input: the rows before it are written and complete.
        say(`stopped at the budget: ${messageOf(result.error)}`);
        say(
          `${result.rows} rows written; a bulk run that would cross the budget is not sent, so the rows from row ${result.rows + 1} on were not started` +
            (journalPath
              ? `; go on with: ${resumeCommand()} (pipe the same rows into it; it counts them first and names the --max-runs they need)`
              : "")
        );
        return result.error.exitCode;
      }
      say(`${messageOf(result.error)}`);
      say(`stopped; the output holds the first ${result.rows} rows only and is not complete`);
      return result.error instanceof CliError ? result.error.exitCode : EXIT_CODES.badInput;
    case "write-error":
      say(`${messageOf(result.error)}`);
      say(
        `stopped: the output could not be written after ${result.rows} rows; the runs were not cancelled, ${resumeHint}`
      );
      return EXIT_CODES.serviceUnfinished;
    default:
      return reportServiceError(result.failures, result.rows, resumeHint, resumeCommand, say);
  }
}

function reportServiceError(
  failures: JobFailure[],
  rows: number,
  resumeHint: string,
  resumeCommand: (extra?: string[]) => string,
  say: (text: string) => void
): ExitCode {
  const first = failures[0];
  say(describeServiceError(first?.error ?? new SpellError("a bulk run did not finish")));
  const mayHaveStarted = failures.filter((failure) => failure.kind === "mayHaveStarted");
  const unfinished = failures.filter((failure) => failure.kind === "unfinished");
  if (first && failures.every((failure) => startedNothing(failure.kind))) {
    say(
      `stopped; nothing was started for ${rowsText(first)}: the service refused it. ${rows} rows written, nothing is left running. ` +
        `Correct the command and run it again (the journal does not block it); if only the key or the service was at fault, ${resumeHint}`
    );
    return EXIT_CODES.service;
  }
  for (const failure of mayHaveStarted) {
    const resume = resumeCommand();
    say(
      `${rowsText(failure)} may have been started: their bulkStart got no answer. ${resume} writes them "unknown"; ` +
        `${resumeCommand(["--rerun-unknown"])} sends them again, and each of them may then be paid twice`
    );
  }
  say(
    `stopped; ${rows} rows written` +
      (unfinished.length > 0 ? ", the runs already started keep running at the service" : "") +
      `; ${resumeHint}`
  );
  return EXIT_CODES.serviceUnfinished;
}

function rowsText(failure: JobFailure): string {
  return `rows ${failure.firstRow + 1}-${failure.firstRow + failure.count}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The next step's command with every flag it needs, the runs it may start counted from the
 * journal as it is now; undefined without a journal (stdout).
 */
function stepCommand(
  options: CommandJob,
  verb: "resume" | "retry",
  rowsWritten: number,
  extra: string[] = []
): string | undefined {
  const { journal, job } = options;
  if (!journal) return undefined;
  let newRuns: number | undefined;
  try {
    const state = replayJournal(journal.records());
    const total = job.total ?? rowsWritten;
    newRuns =
      verb === "resume"
        ? newRunsOnResume(state, total, extra.includes("--rerun-unknown"))
        : newRunsOnRetry(state, total, false);
  } catch {
    // A journal that cannot be read back (the disk failed) still gets its step, without a count.
  }
  return nextStepCommand({
    verb,
    journalPath: journal.path,
    job: options.next?.job ?? job,
    ...(newRuns === undefined ? {} : { newRuns }),
    ...(options.next?.connection ? { connection: options.next.connection } : {}),
    extra: [...(job.csvGuard ? [] : ["--no-csv-guard"]), ...extra],
  });
}

/** Why the service refused a start, in a few words for the progress line (`HTTP 413, too large`). */
function refusalOf(failures: JobFailure[]): { refusal?: string } {
  const refusal = failures.find((failure) => startedNothing(failure.kind));
  if (!refusal) return {};
  const { error } = refusal;
  if (error instanceof SpellRequestTooLargeError) return { refusal: "too large to send" };
  if (error instanceof SpellHttpError) {
    return { refusal: `HTTP ${error.status}${error.status === 413 ? ", too large" : ""}` };
  }
  return {};
}

/**
 * The rows unchanged; `onStop` is told when they end at the `--max-runs` budget (stdin), with
 * the rows read: those let through and the one past the budget.
 */
async function* noticeBudgetStop<T>(
  rows: AsyncIterable<T>,
  onStop: (read: number) => void
): AsyncGenerator<T> {
  let read = 0;
  try {
    for await (const row of rows) {
      read++;
      yield row;
    }
  } catch (error) {
    if (error instanceof RunBudgetError) onStop(read + 1);
    throw error;
  }
}
