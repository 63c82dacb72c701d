import path from "node:path";
import { SpellClient } from "spellrun";
import { CliError } from "../errors/CliError.js";
import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import { Journal } from "../job/Journal.js";
import { JournalLock } from "../job/JournalLock.js";
import { OutputFile } from "../table/OutputFile.js";
import { parsePositiveInteger } from "./parsePositiveInteger.js";
import { jobRows } from "../job/jobRows.js";
import { replayJournal, unwrittenWindows } from "../job/replayJournal.js";
import { resolveConnection, type ConnectionFlags } from "./resolveConnection.js";
import { runBulkJob } from "../job/runBulkJob.js";
import { UsageError } from "../errors/UsageError.js";
import { trustedJob } from "../job/trustedJob.js";

/**
 * The options of `spellrun resume`.
 *
 * ## Example
 * ```ts
 * const flags: ResumeFlags = { maxInFlight: "8", progressEvery: "10", rerunUnknown: false };
 * ```
 */
export interface ResumeFlags extends ConnectionFlags {
  maxInFlight: string;
  quiet?: boolean;
  progressEvery: string;
  rerunUnknown?: boolean;
  /** The input file, when the journal's lies outside its folder (see `trustedJob`). */
  input?: string;
}

/**
 * `spellrun resume <journal>`: continues a bulk job after Ctrl-C, a service error or a crash.
 * Rows the journal vouches for stay; the rest of the output is cut off and rewritten. Windows
 * with a recorded group are re-attached with the core's `resumeBulk` (nothing started again);
 * windows never submitted are started; a window whose bulkStart may have reached the service
 * without its answer being recorded is written as `unknown`, never started again unless
 * `--rerun-unknown`; a group the service no longer knows is written `expired` (run those rows
 * again with `spellrun retry`).
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
  const maxInFlight = parsePositiveInteger(flags.maxInFlight, "--max-in-flight");
  const progressEveryMs = Number(flags.progressEvery) * 1000;
  if (!(progressEveryMs >= 0)) throw new UsageError("--progress-every must be a number of seconds");
  // Read once to check it is a journal, then locked: a second command of this job refuses here.
  Journal.read(journalPath);
  JournalLock.acquire(journalPath);
  const state = replayJournal(Journal.read(journalPath).records);
  // Paths from where the journal is, addresses from flags and environment: never from inside it.
  const job = trustedJob(journalPath, state.job, flags);
  if (state.outcome === "complete") {
    process.stderr.write(
      `spellrun: the job is complete, ${state.writtenRows} rows in ${job.output}\n`
    );
    return EXIT_CODES.success;
  }
  const connection = resolveConnection(flags, process.env, job);
  if (job.output === "-")
    throw new CliError("This job wrote to stdout; there is no output to continue");
  const { journal } = Journal.open(journalPath);
  const output = OutputFile.resume(job.output, state.writtenBytes);
  const client = new SpellClient({ ...connection, maxInFlight, bulkChunkSize: job.chunkSize });
  if (!flags.quiet) {
    const known = unwrittenWindows(state).map((index) => state.windows.get(index)!);
    process.stderr.write(
      `spellrun: resuming ${path.basename(job.output)} after row ${state.writtenRows}: ${known.filter((w) => w.groupId).length} bulk runs to re-attach, ${known.filter((w) => !w.groupId).length} with no recorded id\n`
    );
  }
  return runBulkJob(
    {
      client,
      job,
      ...jobRows(job, state.layout),
      journal,
      output,
      ...(state.layout ? { layout: state.layout } : {}),
      resume: state,
      rerunUnknown: flags.rerunUnknown === true,
      maxWindows: maxInFlight,
    },
    { quiet: flags.quiet === true, progressEveryMs }
  );
}
