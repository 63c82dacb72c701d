import { existsSync, renameSync, rmSync } from "node:fs";
import { continuationLimits } from "./continuationLimits.js";
import { SpellClient } from "spellrun";
import { CliError } from "../errors/CliError.js";
import type { ExitCode } from "../errors/exitCodes.js";
import { Journal } from "../job/Journal.js";
import type { JobRecord } from "../job/JournalRecord.js";
import { jobRows } from "../job/jobRows.js";
import { OutputFile } from "../table/OutputFile.js";
import { replayJournal, unwrittenWindows } from "../job/replayJournal.js";
import { resolveConnection, type ConnectionFlags } from "./resolveConnection.js";
import { runBulkJob } from "./runBulkJob.js";
import { UsageError } from "../errors/UsageError.js";
import { newRunsOnRetry } from "../job/newRuns.js";
import { readJobInput } from "../job/readJobInput.js";
import { fingerprintInput } from "../job/InputFingerprint.js";
import { resumeStepCommand } from "./nextStep.js";
import { openJournalJob, type JournalJobFlags } from "./openJournalJob.js";
import { announceRuns, checkRunBudget } from "./runBudget.js";

/**
 * The options of `spellrun retry`.
 *
 * ## Example
 * ```ts
 * const flags: RetryFlags = { maxInFlight: "8", progressEvery: "10" };
 * ```
 */
export interface RetryFlags extends ConnectionFlags, JournalJobFlags {
  maxInFlight: string;
  /** The most new runs this command may start (`DEFAULT_MAX_RUNS` unless given). */
  maxRuns: string;
  /** The largest bulkStart body (`SpellClientOptions.maxBulkBodyBytes`). */
  maxBodyBytes?: string;
  /** Rows per bulk run (at most the job's window). */
  chunkSize?: string;
  quiet?: boolean;
  progressEvery: string;
  rerunUnknown?: boolean;
  /** Run the rows again with the input as it is now, though it changed since the job began. */
  inputChanged?: boolean;
}

/**
 * `spellrun retry <journal>`: runs again the rows of a finished job that failed, errored, were
 * cancelled or expired (and rows never reached), and leaves an output with every row once, in
 * input order. Succeeded rows are copied as they are, never run again; `unknown` rows (whose
 * start may have happened) only with `--rerun-unknown`. The input must be the one the job began
 * with, unless `--input-changed` says to run the rows with the input as it is now.
 *
 * The earlier output is kept as `<output>.before-retry` while the retry runs; the retry is a job
 * of its own with a new journal in the same place, so Ctrl-C, `resume` and `status` work on it
 * as on any job. Before the first start: the journal locked and checked, the input checked in
 * full, the new runs held to `--max-runs` and announced.
 *
 * ## Example
 * ```ts
 * process.exitCode = await retryCommand("out.csv.journal", flags);
 * ```
 * @param journalPath the journal of the finished job
 * @param flags the options
 * @return the exit code
 */
export async function retryCommand(journalPath: string, flags: RetryFlags): Promise<ExitCode> {
  const { maxInFlight, maxRuns, maxBulkBodyBytes, chunkSize, progressEveryMs } =
    continuationLimits(flags);
  const { state, job } = openJournalJob(journalPath, flags);
  if (job.output === "-")
    throw new CliError("This job wrote to stdout; there is no output to retry");
  // Rows of a group that may still run must be collected first: running them again pays twice.
  if (state.outcome === undefined || unwrittenWindows(state).length > 0) {
    throw new UsageError(
      `The job has bulk runs whose rows are not written yet: collect them first with "${resumeStepCommand(journalPath, state, job, flags)}", then retry`
    );
  }
  // An unfinished retry still needs its kept earlier output: it is continued, not retried again.
  if (job.retryOf !== undefined && state.outcome !== "complete") {
    throw new UsageError(
      `This retry did not finish: continue it with "${resumeStepCommand(journalPath, state, job, flags)}", then retry`
    );
  }
  if (!state.layout && job.outputFormat !== "jsonl") {
    throw new UsageError(
      `The job wrote no rows yet: run it again with "${resumeStepCommand(journalPath, state, job, flags)}"`
    );
  }
  const connection = resolveConnection(flags, process.env, job);
  const checked = flags.inputChanged ? { ...job, inputFingerprint: undefined } : job;
  const input = await readJobInput(
    journalPath,
    state,
    checked,
    "pass --input-changed to run the rows again with the input as it is now"
  );
  try {
    const rerunUnknown = flags.rerunUnknown === true;
    const newRuns = newRunsOnRetry(state, input.rows, rerunUnknown);
    checkRunBudget(newRuns, maxRuns, `retry would start up to ${newRuns} new runs`);
    const keptPath = `${job.output}.before-retry`;
    const { inputFingerprint: _recorded, ...rest } = job;
    const retry: JobRecord = {
      ...rest,
      total: input.rows,
      ...(job.input === "-" ? {} : { inputFingerprint: fingerprintInput(job.input) }),
      retryOf: keptPath,
      retryUnknown: rerunUnknown,
    };
    // The new journal is complete on disk before the earlier output moves, and replaces the old
    // one in one rename: a crash leaves either the old job or the retry job, never neither.
    const pending = `${journalPath}.retry`;
    // A leftover of a crashed retry is this command's own file.
    Journal.create(pending, retry, true).close();
    if (existsSync(job.output)) renameSync(job.output, keptPath);
    else if (!existsSync(keptPath)) throw new CliError(`${job.output} is missing`);
    renameSync(pending, journalPath);
    const { journal } = Journal.open(journalPath);
    const output = OutputFile.create(job.output);
    const client = new SpellClient({
      ...connection,
      maxInFlight,
      maxBulkBodyBytes,
      bulkChunkSize: Math.min(chunkSize ?? job.chunkSize, job.chunkSize),
    });
    if (!flags.quiet) announceRuns("retry", newRuns, job.spellId);
    const reading = { ...retry, input: input.job.input };
    const code = await runBulkJob(
      {
        client,
        job: reading,
        ...jobRows(reading, state.layout),
        journal,
        output,
        ...(state.layout ? { layout: state.layout, writeHeader: true } : {}),
        rerunUnknown: false,
        maxWindows: maxInFlight,
        next: { job, connection: flags },
      },
      { quiet: flags.quiet === true, progressEveryMs }
    );
    const after = replayJournal(Journal.read(journalPath).records);
    // The earlier output is only needed until the retry has written every row.
    if (after.outcome === "complete") rmSync(keptPath, { force: true });
    return code;
  } finally {
    input.dispose();
  }
}
