import { closeSync, rmSync, writeSync } from "node:fs";
import { countRows } from "../table/countRows.js";
import { openPrivateFile } from "../table/openPrivateFile.js";
import { InputError } from "../errors/InputError.js";
import { UsageError } from "../errors/UsageError.js";
import type { InputReading } from "../table/InputReading.js";
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
 *   stdin is not the end of the job, and would otherwise drop the other rows for good; nor one
 *   that ends before the row past the budget of a job that stopped at its `--max-runs`.
 *
 * Either is read as the job began (`--encoding`, `--delimiter`, `--no-header-row` kept in the
 * journal's job record): the journal is written before the first row is read, so this holds
 * wherever a kill stopped the job. An input that does not read so is refused naming the job's
 * reading (and `stdin`, not the spooled copy), never a `bulk` flag these commands do not take.
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
    const rows = await countJobRows(job.input, job.input, job);
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
    rows = await countJobRows(spool, "stdin", job);
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
  if (rows < state.knownRows) {
    // Taken as the end of the job, it would mark the job complete and drop the rest for good.
    dispose();
    throw new UsageError(
      `stdin has ${rows} rows, but this job stopped at its --max-runs with more than ${state.knownRows - 1} rows: not the job's input, refused (nothing was sent, the job is unchanged). Pipe the same rows in again`
    );
  }
  return { job: spooled, rows, dispose };
}

/** Counts (and checks) the job's input read as the job read it; `name` in messages. */
async function countJobRows(file: string, name: string, job: JobRecord): Promise<number> {
  try {
    return await countRows(file, job.inputFormat, job.mapping, job.reading ?? {});
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const readBy = describeReading(job.inputFormat, job.reading ?? {});
    throw new InputError(
      name,
      error.line,
      `${error.detail}: this job reads its ${job.inputFormat.toUpperCase()} input ${readBy}, as it began; ${
        job.input === "-"
          ? "pipe the job's own rows in again"
          : `${job.input} is not as the job read it`
      } (nothing was sent, the job is unchanged)`,
      { cause: error }
    );
  }
}

/** How the job reads its input, in the flags of the `bulk` that began it. */
function describeReading(format: string, reading: InputReading): string {
  if (format === "jsonl")
    return `as ${reading.encoding ? `--encoding ${reading.encoding}` : "UTF-8"}`;
  const delimiter = reading.delimiter ?? (format === "tsv" ? "\t" : ",");
  return [
    `with --delimiter "${delimiter === "\t" ? "\\t" : delimiter}"`,
    reading.encoding ? `--encoding ${reading.encoding}` : "",
    reading.headerRow === false ? "--no-header-row" : "",
  ]
    .filter(Boolean)
    .join(" ");
}
