import { Journal } from "../job/Journal.js";
import { JournalLock } from "../job/JournalLock.js";
import type { JobRecord } from "../job/JournalRecord.js";
import { checkJournalFile } from "../job/checkJournalFile.js";
import { replayJournal, type JournalState } from "../job/replayJournal.js";
import { trustedJob } from "../job/trustedJob.js";
import { UsageError } from "../errors/UsageError.js";

/**
 * The flags of `resume` and `retry` that confirm what a journal cannot decide alone.
 *
 * ## Example
 * ```ts
 * const flags: JournalJobFlags = { input: "data/in.csv", csvGuard: true };
 * ```
 */
export interface JournalJobFlags {
  /** The input file, when the journal's lies outside its folder (see `trustedJob`). */
  input?: string;
  /** False with `--no-csv-guard`: confirms a job that wrote unguarded cells. */
  csvGuard?: boolean;
}

/**
 * Opens a journal for a command that will start runs (`resume`, `retry`): the file checked as
 * the user's own (`checkJournalFile`), the journal locked for this command (`JournalLock`), its
 * records replayed, its paths taken from where it is (`trustedJob`). A journal that turns the
 * CSV guard off is refused unless `--no-csv-guard` is given again: a file never turns a
 * protection off on its own.
 *
 * ## Example
 * ```ts
 * const { state, job } = openJournalJob("out.csv.journal", flags);
 * ```
 * @param journalPath the journal file
 * @param flags `--input`, `--no-csv-guard`
 * @return the replayed journal and its trusted job
 */
export function openJournalJob(
  journalPath: string,
  flags: JournalJobFlags
): { state: JournalState; job: JobRecord } {
  checkJournalFile(journalPath);
  // Read once to check it is a journal, then locked: a second command of this job refuses here.
  Journal.read(journalPath);
  JournalLock.acquire(journalPath);
  const state = replayJournal(Journal.read(journalPath).records);
  // Paths from where the journal is, addresses from flags and environment: never from inside it.
  const job = trustedJob(journalPath, state.job, flags);
  if (!job.csvGuard && flags.csvGuard !== false) {
    throw new UsageError(
      `${journalPath} writes CSV cells unguarded (the job began with --no-csv-guard): pass --no-csv-guard again to continue it so, nothing was sent`
    );
  }
  return { state, job };
}
