import path from "node:path";
import { UsageError } from "../errors/UsageError.js";
import type { JobRecord } from "./JournalRecord.js";

/** What a journal's name ends with: the output's path plus this. */
export const JOURNAL_SUFFIX = ".journal";

/**
 * A journal's job with its paths taken from where the journal is, not from what it says: a
 * journal is a file anyone may have planted or edited, so it must not choose which file is
 * truncated or which file is uploaded as rows.
 *
 * - the output is the journal's own path without `.journal` (as `spellrun bulk` placed it);
 * - a retry's earlier output is that path plus `.before-retry`;
 * - the input is the one the journal names only inside the journal's own folder; anywhere else
 *   the user names it again with `--input` (that choice is theirs, not the file's).
 *
 * ## Example
 * ```ts
 * const job = trustedJob("/data/out.csv.journal", state.job, flags); // job.output === "/data/out.csv"
 * ```
 *
 * @param journalPath The journal file, as given on the command line.
 * @param job The job record the journal holds.
 * @param flags `--input`, when given.
 * @return The job with trusted paths.
 * @throws UsageError when the journal's name is not `<output>.journal`, or its input lies
 *   outside its folder and `--input` was not given.
 */
export function trustedJob(
  journalPath: string,
  job: JobRecord,
  flags: { input?: string }
): JobRecord {
  const journal = path.resolve(journalPath);
  if (!journal.endsWith(JOURNAL_SUFFIX) || journal.length === JOURNAL_SUFFIX.length) {
    throw new UsageError(
      `${journalPath} is not named <output>${JOURNAL_SUFFIX}: spellrun finds a job's output next to its journal, never from inside it`
    );
  }
  const output = journal.slice(0, -JOURNAL_SUFFIX.length);
  const folder = path.dirname(journal);
  let input = job.input;
  if (flags.input !== undefined) input = flags.input === "-" ? "-" : path.resolve(flags.input);
  else if (input !== "-" && !isInside(folder, path.resolve(folder, input))) {
    throw new UsageError(
      `${journalPath} names the input ${job.input}, outside the journal's own folder: pass --input with the input file to confirm it`
    );
  }
  return {
    ...job,
    input,
    output,
    ...(job.retryOf === undefined ? {} : { retryOf: `${output}.before-retry` }),
  };
}

/**
 * Whether a job's input lies outside its journal's folder, so that `resume` and `retry` read it
 * only when named with `--input` (and a printed next step must name it).
 *
 * ## Example
 * ```ts
 * inputOutsideJournalFolder("out/o.csv.journal", "data/in.csv"); // true
 * ```
 * @param journalPath the journal file
 * @param input the input file
 * @return true when `--input` is needed
 */
export function inputOutsideJournalFolder(journalPath: string, input: string): boolean {
  const folder = path.dirname(path.resolve(journalPath));
  return !isInside(folder, path.resolve(folder, input));
}

function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}
