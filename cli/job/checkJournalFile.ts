import { lstatSync, statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors/UsageError.js";

/**
 * Refuses a journal someone else could have written before `resume` or `retry` acts on it: a
 * journal decides which spell runs, over which rows, and whether the output is guarded, so it
 * must be the user's own file, writable by them only, in a folder where nobody else can replace
 * it. `bulk` creates journals 0600 in the user's folder, so its own journals always pass.
 *
 * - the journal is a regular file (not a link), owned by the user running the command;
 * - it is not writable by the group or others;
 * - its folder is not writable by others unless the folder is sticky (`/tmp`: others cannot
 *   replace a file they do not own) — a shared, group-writable folder is refused.
 *
 * (Where the platform has no owners, as on Windows, only the link rule applies.)
 *
 * ## Example
 * ```ts
 * checkJournalFile("out.csv.journal"); // UsageError when planted
 * ```
 *
 * @param journalPath The journal file.
 * @throws UsageError naming the rule it breaks and how to make it the user's own.
 */
export function checkJournalFile(journalPath: string): void {
  let journal;
  try {
    journal = lstatSync(journalPath);
  } catch {
    return; // Missing: reading it says so.
  }
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const refuse = (why: string) =>
    new UsageError(
      `${journalPath} ${why}: refused, nothing was sent (a journal decides what runs and is paid for, so it must be your own). If you trust it, copy the job's folder into a folder of your own and run the command there`
    );
  if (!journal.isFile()) throw refuse("is not a regular file");
  if (journal.uid !== uid) throw refuse(`is owned by user ${journal.uid}, not by you`);
  if ((journal.mode & 0o022) !== 0) {
    throw refuse(
      `is writable by ${(journal.mode & 0o002) !== 0 ? "everyone" : "its group"} (chmod go-w fixes that for a file of yours)`
    );
  }
  const folder = statSync(path.dirname(path.resolve(journalPath)));
  const sticky = (folder.mode & 0o1000) !== 0;
  if ((folder.mode & 0o022) !== 0 && !sticky) {
    throw refuse(`lies in ${path.dirname(path.resolve(journalPath))}, a folder others can write`);
  }
  if (folder.uid !== uid && folder.uid !== 0 && !sticky) {
    throw refuse(`lies in a folder owned by user ${folder.uid}`);
  }
}
