import { closeSync, rmSync, writeSync } from "node:fs";
import { countRows } from "../table/countRows.js";
import { openPrivateFile } from "../table/openPrivateFile.js";
import { UsageError } from "../errors/UsageError.js";
import { checkInputUnchanged } from "./InputFingerprint.js";
import type { JobRecord } from "./JournalRecord.js";
import { submittedRows } from "./newRuns.js";
import type { JournalState } from "./replayJournal.js";

/**
 * The input of a job `resume` or `retry` continues, checked in full before anything starts:
 *
 * - a file must be the one the job began with (its fingerprint in the journal: size, time,
 *   SHA-256), read without following links, and every line of it well formed (as `bulk` checks);
 * - stdin (a job that read its rows from a pipe) is read to its end into a private file beside
 *   the journal first, and must hold at least the rows the job already sent: an empty or short
 *   stdin is not the end of the job, and would otherwise drop the other rows for good.
 *
 * ## Example
 * ```ts
 * const { job: readable, rows, dispose } = await readJobInput(journalPath, state, job);
 * ```
 * @param journalPath the journal file
 * @param state the replayed journal
 * @param job the job with its trusted paths
 * @param changedInputHint what to do about a changed file, for its message
 * @return the job reading from the checked input, its rows, and `dispose` (removes a spooled stdin)
 */
export async function readJobInput(
  journalPath: string,
  state: JournalState,
  job: JobRecord,
  changedInputHint?: string
): Promise<{ job: JobRecord; rows: number; dispose(): void }> {
  if (job.input !== "-") {
    if (job.inputFingerprint)
      checkInputUnchanged(job.input, job.inputFingerprint, changedInputHint);
    const rows = await countRows(job.input, job.inputFormat, job.mapping);
    // Journals without a fingerprint (and --input-changed) still must not lose rows.
    const sent = submittedRows(state);
    if (rows < sent || (job.total !== undefined && rows < job.total && !job.inputFingerprint)) {
      throw new UsageError(
        `${job.input} has ${rows} rows, but this job ${rows < sent ? `already sent ${sent}` : `began with ${job.total}`}: refused, nothing was sent (the rows after ${rows} would be dropped from the job for good)`
      );
    }
    return { job, rows, dispose: () => undefined };
  }
  const sent = submittedRows(state);
  if (process.stdin.isTTY) {
    throw new UsageError(
      `This job read its rows from stdin: pipe the same rows in again (${sent} of them were sent already), e.g. "spellrun resume ${journalPath} < rows.${job.inputFormat}"`
    );
  }
  const spool = `${journalPath}.stdin`;
  // This command holds the journal's lock: a leftover spool is its own.
  const fd = openPrivateFile(spool, "replace");
  const dispose = () => rmSync(spool, { force: true });
  process.once("exit", dispose);
  try {
    for await (const chunk of process.stdin) writeSync(fd, chunk as Buffer);
  } finally {
    closeSync(fd);
  }
  const spooled = { ...job, input: spool };
  let rows: number;
  try {
    rows = await countRows(spool, job.inputFormat, job.mapping);
  } catch (error) {
    dispose();
    throw error;
  }
  if (rows < sent || rows === 0) {
    dispose();
    throw new UsageError(
      `stdin has ${rows} rows, but this job already sent ${sent}: not the job's input, refused (nothing was sent, the job is unchanged). Pipe the same rows in again`
    );
  }
  return { job: spooled, rows, dispose };
}
