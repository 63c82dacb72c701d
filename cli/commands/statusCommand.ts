import { RETRYABLE_STATUSES } from "spellrun";
import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import { Journal } from "../job/Journal.js";
import { replayJournal, unwrittenWindows, type JournalState } from "../job/replayJournal.js";
import { terminalText } from "../errors/terminalText.js";
import { checkJournalFile } from "../job/checkJournalFile.js";
import { newRunsOnResume, newRunsOnRetry } from "../job/newRuns.js";
import { nextStepCommand, shellQuote } from "./nextStep.js";
import { plural } from "./plural.js";
import { commandAsRun } from "../errors/commandAsRun.js";
import { JournalLock } from "../job/JournalLock.js";

/**
 * `spellrun status <journal>`: what a bulk job has done, from its journal alone (no service
 * call, no key), and the command that comes next. Exit code 0 when the job is complete, 1
 * otherwise.
 *
 * ## Example
 * ```ts
 * process.exitCode = statusCommand("out.csv.journal");
 * ```
 * @param journalPath the journal file
 * @return the exit code
 */
export function statusCommand(journalPath: string): ExitCode {
  const state = replayJournal(Journal.read(journalPath).records);
  const { job } = state;
  const windows = [...state.windows.values()];
  // A window's rows that were known (a retry's rows copied from the earlier output) were not
  // sent: `sent` counts the rows of its bulk run.
  const sentOf = (window: { count: number; sent?: number }) => window.sent ?? window.count;
  const submitted = windows.reduce((sum, window) => sum + sentOf(window), 0);
  const unrecorded = windows.filter((window) => window.groupId === undefined);
  const total = job.total === undefined ? "" : ` of ${job.total}`;
  // A job another command is running now: its journal is locked (a resume would exit 6).
  const holder = JournalLock.holder(journalPath);
  const running =
    holder === undefined
      ? undefined
      : holder === null
        ? "running in another spellrun (its lock cannot be read)"
        : `running in spellrun pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}`;
  const startedNothing =
    state.outcome !== undefined && state.writtenRows === 0 && unwrittenWindows(state).length === 0;
  const lines = [
    `spell      ${job.spellId}`,
    `input      ${job.input}`,
    `output     ${job.output}`,
    `rows       ${state.writtenRows}${total} written; ${submitted} submitted in ${plural(windows.length, "bulk run")} of up to ${job.chunkSize}` +
      (job.retryOf === undefined ? "" : `; ${copiedRows(state)} copied from the earlier output`),
    `bulk runs  ${windows.length - unrecorded.length} with a recorded id` +
      (unrecorded.length > 0
        ? `, ${unrecorded.length} submitted with no recorded id (${unrecorded.reduce((sum, window) => sum + sentOf(window), 0)} rows: unknown unless resumed with --rerun-unknown)`
        : ""),
    `statuses   ${
      Object.entries(state.counts)
        .map(([status, count]) => `${status} ${count}`)
        .join(", ") || "none written yet"
    }`,
    `state      ${
      running !== undefined
        ? running
        : state.stoppedAtBudget
          ? "stopped at the budget (--max-runs): stdin had more rows than it allowed"
          : (state.outcome ?? "stopped without an end record (killed?)")
    }`,
  ];
  const retryable = RETRYABLE_STATUSES.reduce((sum, s) => sum + (state.counts[s] ?? 0), 0);
  let refusal: string | undefined;
  try {
    // A journal someone else could have written gets no command to run, only the reason.
    checkJournalFile(journalPath);
  } catch (error) {
    refusal = (error as Error).message;
  }
  // Each step carries every flag it needs (--input, --max-runs), so it works as printed.
  const step = (verb: "resume" | "retry") => {
    const total = job.total ?? state.writtenRows;
    const command = nextStepCommand({
      verb,
      journalPath,
      job,
      newRuns:
        verb === "resume"
          ? newRunsOnResume(state, total, false)
          : newRunsOnRetry(state, total, false),
      extra: job.csvGuard ? [] : ["--no-csv-guard"],
    });
    return job.input === "-"
      ? `${command} (pipe the same rows into it: the job read them from stdin)`
      : command;
  };
  if (running !== undefined) {
    // Not a resume: it would refuse (exit 6) while the job's own command holds the lock.
    lines.push(
      `next       ${commandAsRun()} status ${shellQuote(journalPath)} (the job is running: look again later)`
    );
  } else if (refusal !== undefined && state.outcome !== "complete") {
    lines.push(`next       none: ${refusal}`);
  } else if (startedNothing && state.outcome !== "complete") {
    lines.push(
      `next       nothing was started: correct the command and run it again (this journal does not block it)`
    );
  } else if (state.outcome !== "complete") {
    lines.push(`next       ${step("resume")}`);
  } else if (retryable > 0 && refusal === undefined) {
    lines.push(
      `next       ${step("retry")} (runs the ${retryable} rows that did not succeed again)`
    );
  }
  // A journal is a file anyone may have edited: its fields are shown, never obeyed.
  process.stdout.write(`${terminalText(lines.join("\n"))}\n`);
  return state.outcome === "complete" ? EXIT_CODES.success : EXIT_CODES.someRowsFailed;
}

/**
 * The rows a retry has written without running them (copied from the earlier output): the
 * written rows less those sent in the bulk runs written whole (a window is written at once).
 */
function copiedRows(state: JournalState): number {
  let ran = 0;
  for (const [index, window] of state.windows) {
    if (index * state.job.chunkSize + window.count <= state.writtenRows) {
      ran += window.sent ?? window.count;
    }
  }
  return state.writtenRows - ran;
}
