import path from "node:path";
import { plural } from "./plural.js";
import { continuationLimits } from "./continuationLimits.js";
import { RETRYABLE_STATUSES, SpellClient } from "spellrun";
import { CliError } from "../errors/CliError.js";
import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import { Journal } from "../job/Journal.js";
import { OutputFile } from "../table/OutputFile.js";
import { jobRows } from "../job/jobRows.js";
import { unwrittenWindows } from "../job/replayJournal.js";
import { resolveConnection, type ConnectionFlags } from "./resolveConnection.js";
import { runBulkJob } from "./runBulkJob.js";
import { newRunsOnResume } from "../job/newRuns.js";
import { nextStepCommand } from "./nextStep.js";
import { readJobInput } from "../job/readJobInput.js";
import { openJournalJob, type JournalJobFlags } from "./openJournalJob.js";
import { announceRuns, checkRunBudget, limitRows } from "./runBudget.js";

/**
 * The options of `spellrun resume`.
 *
 * ## Example
 * ```ts
 * const flags: ResumeFlags = { maxInFlight: "8", maxRuns: "1000", progressEvery: "10", rerunUnknown: false, csvGuard: true };
 * ```
 */
export interface ResumeFlags extends ConnectionFlags, JournalJobFlags {
  maxInFlight: string;
  /** The most new runs this command may start (`DEFAULT_MAX_RUNS` unless given). */
  maxRuns: string;
  /** The largest bulkStart body (`SpellClientOptions.maxBulkBodyBytes`). */
  maxBodyBytes?: string;
  /** Rows per bulk run for rows not sent yet (at most the job's window). */
  chunkSize?: string;
  quiet?: boolean;
  progressEvery: string;
  rerunUnknown?: boolean;
}

/**
 * `spellrun resume <journal>`: continues a bulk job after Ctrl-C, a signal, a service error or a
 * crash. Rows the journal vouches for stay; the rest of the output is cut off and rewritten.
 * Windows with a recorded group are re-attached with the core's `resumeBulk` (nothing started
 * again); windows never submitted are started; a window whose bulkStart may have reached the
 * service without its answer being recorded is written as `unknown`, never started again unless
 * `--rerun-unknown`; a group the service no longer knows is written `expired` (run those rows
 * again with `spellrun retry`).
 *
 * Before the first start: the journal is locked and checked (`openJournalJob`), the input checked
 * in full against the journal (`readJobInput`), the new runs held to `--max-runs` and announced.
 *
 * ## Example
 * ```ts
 * process.exitCode = await resumeCommand("out.csv.journal", flags);
 * ```
 * @param journalPath the journal file
 * @param flags the options
 * @return the exit code
 */
export async function resumeCommand(journalPath: string, flags: ResumeFlags): Promise<ExitCode> {
  const { maxInFlight, maxRuns, maxBulkBodyBytes, chunkSize, progressEveryMs } =
    continuationLimits(flags);
  const { state, job } = openJournalJob(journalPath, flags);
  if (state.outcome === "complete") {
    process.stderr.write(
      `spellrun: the job is complete, ${state.writtenRows} rows in ${job.output}\n`
    );
    // Exit 0 only when every row succeeded (the exit-code table), else say what comes next.
    const notOk = state.writtenRows - (state.counts.success ?? 0) - (state.counts.skipped ?? 0);
    if (notOk === 0) return EXIT_CODES.success;
    const retryable = RETRYABLE_STATUSES.reduce((sum, s) => sum + (state.counts[s] ?? 0), 0);
    const retry = (extra: string[]) =>
      nextStepCommand({
        verb: "retry",
        journalPath,
        job,
        connection: flags,
        extra: [...(job.csvGuard ? [] : ["--no-csv-guard"]), ...extra],
      });
    process.stderr.write(
      retryable > 0
        ? `spellrun: ${retryable} rows failed, errored, were cancelled or expired; run them again with: ${retry([])}\n`
        : `spellrun: ${notOk} rows are unknown (their runs may have started); ${retry(["--rerun-unknown"])} starts them again, and may pay for them twice\n`
    );
    return EXIT_CODES.someRowsFailed;
  }
  const connection = resolveConnection(flags, process.env, job);
  if (job.output === "-")
    throw new CliError("This job wrote to stdout; there is no output to continue");
  const input = await readJobInput(journalPath, state, job);
  try {
    const rerunUnknown = flags.rerunUnknown === true;
    const newRuns = newRunsOnResume(state, input.rows, rerunUnknown);
    // A file is held to the budget before anything starts (as bulk does); stdin, as bulk does
    // with stdin, stops at the row past the budget, so its printed next step goes on from there.
    const fromStdin = job.input === "-";
    if (!fromStdin)
      checkRunBudget(newRuns, maxRuns, `resume would start up to ${newRuns} new runs`);
    // A bulk's header written before any row (a refused first start: no output seen yet) is not
    // kept: the rows of this resume choose the columns, as a bulk never refused would. A retry's
    // header is the earlier output's layout, which its kept rows are read by: it stays.
    const layout =
      state.writtenRows > 0 || input.job.retryOf !== undefined ? state.layout : undefined;
    const rows = jobRows(input.job, layout);
    const { journal } = Journal.open(journalPath);
    const output = OutputFile.resume(job.output, layout ? state.writtenBytes : 0);
    const client = new SpellClient({
      ...connection,
      maxInFlight,
      maxBulkBodyBytes,
      bulkChunkSize: Math.min(chunkSize ?? job.chunkSize, job.chunkSize),
    });
    if (!flags.quiet) {
      const known = unwrittenWindows(state).map((index) => state.windows.get(index)!);
      process.stderr.write(
        `spellrun: resuming ${path.basename(job.output)} after row ${state.writtenRows}: ${plural(known.filter((w) => w.groupId).length, "bulk run")} to re-attach, ${known.filter((w) => !w.groupId).length} with no recorded id\n`
      );
      announceRuns("resume", Math.min(newRuns, maxRuns), job.spellId);
    }
    return await runBulkJob(
      {
        client,
        job: { ...input.job, total: input.rows },
        ...rows,
        ...(fromStdin && newRuns > maxRuns
          ? { rows: limitRows(rows.rows, maxRuns, input.rows - newRuns + maxRuns, newRuns) }
          : {}),
        journal,
        output,
        ...(layout ? { layout } : {}),
        resume: state,
        rerunUnknown,
        maxWindows: maxInFlight,
        next: { job, connection: flags },
      },
      { quiet: flags.quiet === true, progressEveryMs }
    );
  } finally {
    input.dispose();
  }
}
