import { SpellError } from "spellrun";
import { BulkJob, type BulkJobOptions } from "./BulkJob.js";
import { CliError } from "../errors/CliError.js";
import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import { ProgressReporter } from "./ProgressReporter.js";
import { commandAsRun } from "../commands/commandAsRun.js";
import { describeServiceError } from "../errors/describeServiceError.js";

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
 * Runs a `BulkJob` as a command: progress on stderr, Ctrl-C handling (first press cancels the
 * unfinished groups and writes every row, second press exits at once), a closing summary that
 * says how to resume, and the exit code (see `EXIT_CODES`).
 *
 * ## Example
 * ```ts
 * process.exitCode = await runBulkJob(options, { quiet: false, progressEveryMs: 10_000 });
 * ```
 * @param options the job
 * @param display progress settings
 * @return the exit code
 */
export async function runBulkJob(options: BulkJobOptions, display: JobDisplay): Promise<ExitCode> {
  const job = new BulkJob(options);
  const reporter = new ProgressReporter({ quiet: display.quiet, everyMs: display.progressEveryMs });
  let presses = 0;
  const onSigint = (): void => {
    presses++;
    if (presses > 1) process.exit(EXIT_CODES.interrupted);
    // On its own line: the progress line is cleared first (the terminal has echoed ^C into it).
    reporter.note(
      "spellrun: cancelling the unfinished bulk runs and writing every row (Ctrl-C again exits at once)"
    );
    job.interrupt();
  };
  process.on("SIGINT", onSigint);
  try {
    const result = await job.run((progress) => reporter.update(progress));
    reporter.stop(job.progress());
    const journalPath = options.journal?.path;
    const resumeHint = journalPath
      ? `resume with: ${commandAsRun()} resume ${shellQuote(journalPath)}`
      : "the output is stdout, so there is no journal to resume from";
    switch (result.outcome) {
      case "complete": {
        const notOk = result.rows - (result.counts.success ?? 0);
        if (!display.quiet) {
          process.stderr.write(
            `spellrun: done, ${result.rows} rows in ${options.output.path === "-" ? "stdout" : options.output.path}\n`
          );
        }
        return notOk > 0 ? EXIT_CODES.someRowsFailed : EXIT_CODES.success;
      }
      case "interrupted":
        process.stderr.write(
          `spellrun: interrupted; ${result.rows} rows written, the unfinished runs were cancelled; ${resumeHint}\n`
        );
        return EXIT_CODES.interrupted;
      case "input-error":
        process.stderr.write(
          `spellrun: ${messageOf(result.error)}\nspellrun: stopped; the output holds the first ${result.rows} rows only and is not complete\n`
        );
        return result.error instanceof CliError ? result.error.exitCode : EXIT_CODES.badInput;
      default:
        process.stderr.write(
          `spellrun: ${describeServiceError(result.error ?? new SpellError("a bulk run did not finish"))}\nspellrun: stopped; ${result.rows} rows written, the runs already started keep running at the service; ${resumeHint}\n`
        );
        return EXIT_CODES.service;
    }
  } finally {
    // The handler stays: after the job, a press means "exit now" even if cancels are still on
    // their way (they keep the process alive until the service answers).
    if (presses === 0) process.off("SIGINT", onSigint);
    options.journal?.close();
    options.output.close();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function shellQuote(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
