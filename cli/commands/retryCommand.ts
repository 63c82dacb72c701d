import { existsSync, renameSync, rmSync } from "node:fs";
import { SpellClient } from "spellrun";
import { CliError } from "../errors/CliError.js";
import type { ExitCode } from "../errors/exitCodes.js";
import { Journal } from "../job/Journal.js";
import { JournalLock } from "../job/JournalLock.js";
import type { JobRecord } from "../job/JournalRecord.js";
import { jobRows } from "../job/jobRows.js";
import { OutputFile } from "../table/OutputFile.js";
import { parsePositiveInteger } from "./parsePositiveInteger.js";
import { replayJournal, unwrittenWindows } from "../job/replayJournal.js";
import { resolveConnection, type ConnectionFlags } from "./resolveConnection.js";
import { runBulkJob } from "../job/runBulkJob.js";
import { UsageError } from "../errors/UsageError.js";
import { trustedJob } from "../job/trustedJob.js";

/**
 * The options of `spellrun retry`.
 *
 * ## Example
 * ```ts
 * const flags: RetryFlags = { maxInFlight: "8", progressEvery: "10" };
 * ```
 */
export interface RetryFlags extends ConnectionFlags {
  maxInFlight: string;
  quiet?: boolean;
  progressEvery: string;
  rerunUnknown?: boolean;
  /** The input file, when the journal's lies outside its folder (see `trustedJob`). */
  input?: string;
}

/**
 * `spellrun retry <journal>`: runs again the rows of a finished job that failed, errored, were
 * cancelled or expired (and rows never reached), with the input's values of now, and leaves an
 * output with every row once, in input order. Succeeded rows are copied as they are, never run
 * again; `unknown` rows (whose start may have happened) only with `--rerun-unknown`.
 *
 * The earlier output is kept as `<output>.before-retry` while the retry runs; the retry is a job
 * of its own with a new journal in the same place, so Ctrl-C, `resume` and `status` work on it
 * as on any job.
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
  const maxInFlight = parsePositiveInteger(flags.maxInFlight, "--max-in-flight");
  const progressEveryMs = Number(flags.progressEvery) * 1000;
  if (!(progressEveryMs >= 0)) throw new UsageError("--progress-every must be a number of seconds");
  // Read once to check it is a journal, then locked: a second command of this job refuses here.
  Journal.read(journalPath);
  JournalLock.acquire(journalPath);
  const state = replayJournal(Journal.read(journalPath).records);
  // Paths from where the journal is, addresses from flags and environment: never from inside it.
  const job = trustedJob(journalPath, state.job, flags);
  if (job.output === "-")
    throw new CliError("This job wrote to stdout; there is no output to retry");
  // Rows of a group that may still run must be collected first: running them again pays twice.
  if (state.outcome === undefined || unwrittenWindows(state).length > 0) {
    throw new UsageError(
      `The job has bulk runs whose rows are not written yet: collect them first with "spellrun resume ${journalPath}", then retry`
    );
  }
  // An unfinished retry still needs its kept earlier output: it is continued, not retried again.
  if (job.retryOf !== undefined && state.outcome !== "complete") {
    throw new UsageError(
      `This retry did not finish: continue it with "spellrun resume ${journalPath}", then retry`
    );
  }
  if (!state.layout && job.outputFormat !== "jsonl") {
    throw new UsageError(
      `The job wrote no rows yet: run it again with "spellrun resume ${journalPath}"`
    );
  }
  const connection = resolveConnection(flags, process.env, job);
  const keptPath = `${job.output}.before-retry`;
  const retry: JobRecord = {
    ...job,
    retryOf: keptPath,
    ...(flags.rerunUnknown ? { retryUnknown: true } : { retryUnknown: false }),
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
  const client = new SpellClient({ ...connection, maxInFlight, bulkChunkSize: job.chunkSize });
  const code = await runBulkJob(
    {
      client,
      job: retry,
      ...jobRows(retry, state.layout),
      journal,
      output,
      ...(state.layout ? { layout: state.layout, writeHeader: true } : {}),
      rerunUnknown: false,
      maxWindows: maxInFlight,
    },
    { quiet: flags.quiet === true, progressEveryMs }
  );
  const after = replayJournal(Journal.read(journalPath).records);
  // The earlier output is only needed until the retry has written every row.
  if (after.outcome === "complete") rmSync(keptPath, { force: true });
  return code;
}
