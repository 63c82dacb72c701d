import { storedJobIds } from "./storedJobProblem.js";

/** Name of the document setting that holds the bulk in progress (what does not change). */
export const BULK_JOB_SETTING = "spellrun.bulkJob";

/** Name of the document setting with the bulk's progress (token, rows written), saved per poll. */
export const BULK_PROGRESS_SETTING = "spellrun.bulkProgress";

/**
 * Name of the document setting listing the ids of the stored jobs (one per block): each job is
 * under `spellrun.bulkJob.<id>` and `spellrun.bulkProgress.<id>`. A job without an id (stored by
 * an earlier version) is under the bare names.
 */
export const BULK_JOB_IDS_SETTING = "spellrun.bulkJobs";

/** Prefix of the setting with a job's kept results (`spellrun.bulkKept.<id>`). */
export const BULK_KEPT_SETTING = "spellrun.bulkKept";

/**
 * The document setting of one job: `base.<id>`, or the bare name for a job without an id (an
 * earlier version's single job).
 *
 * ## Example
 * ```ts
 * settings.get(jobKey(BULK_JOB_SETTING, job.id));
 * ```
 *
 * @param base The setting's name.
 * @param id The job's id.
 * @return The key.
 */
export function jobKey(base: string, id: string | undefined): string {
  return id === undefined ? base : `${base}.${id}`;
}

/**
 * The ids of the stored jobs (checked: a crafted list is cut to what makes sense).
 *
 * ## Example
 * ```ts
 * for (const id of storedIds()) loadJob(id);
 * ```
 *
 * @return The ids.
 */
export function storedIds(): string[] {
  return storedJobIds(Office.context.document.settings.get(BULK_JOB_IDS_SETTING) as unknown);
}

/**
 * Saves the document's settings (`Office.context.document.settings.saveAsync`) as a promise that
 * rejects with a sentence when Office refuses (over its size limit, a read-only document).
 *
 * ## Example
 * ```ts
 * Office.context.document.settings.set("spellrun.bulkCheckpoint.job-1", checkpoint);
 * await saveSettings();
 * ```
 * @return settles when Office answered
 */
export function saveSettings(): Promise<void> {
  return new Promise((resolve, reject) => {
    Office.context.document.settings.saveAsync((result) => {
      if (result.status === Office.AsyncResultStatus.Failed) {
        reject(new Error(`Could not save the document's settings: ${result.error?.message}`));
      } else {
        resolve();
      }
    });
  });
}
