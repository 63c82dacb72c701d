import { BULK_JOB_IDS_SETTING, BULK_KEPT_SETTING } from "./jobSettings.js";
import { damagedBulkJobs } from "./jobStore.js";
import { loadKeptResults, saveKeptResults } from "./keptResults.js";
import { storedJobIds } from "./storedJobProblem.js";

/**
 * Moves the kept results a previous version left in the document settings
 * (`spellrun.bulkKept.<id>`) into their jobs' per-row records, once, when the pane opens (after
 * `openRowRecords`): every settings save carries all the settings, so a few hundred KB of old
 * kept outputs there would make the next bulk's saves pass Office's limit of about 1 MB. Jobs
 * reported damaged, and settings that fail the checks of `keptResultsFromSetting`, are left as
 * they are (Forget removes them); a move that fails leaves the setting, which `loadKeptResults`
 * still reads, and is tried again next time.
 *
 * ## Example
 * ```ts
 * await openRowRecords();
 * await moveKeptResults();
 * ```
 *
 * @return how many jobs' kept results were moved
 */
export async function moveKeptResults(): Promise<number> {
  const settings = Office.context.document.settings;
  const damaged = new Set(damagedBulkJobs().map(({ id }) => id));
  const ids = storedJobIds(settings.get(BULK_JOB_IDS_SETTING) as unknown).filter((id) => {
    const setting = settings.get(`${BULK_KEPT_SETTING}.${id}`) as unknown;
    return !damaged.has(id) && setting !== null && setting !== undefined;
  });
  let moved = 0;
  for (const id of ids) {
    const kept = loadKeptResults(id);
    const setting = settings.get(`${BULK_KEPT_SETTING}.${id}`) as unknown;
    // A setting that fails the checks is not ours to drop: Forget removes it with its job.
    if (kept.length === 0 && !(Array.isArray(setting) && setting.length === 0)) continue;
    try {
      // Written to the record first; the setting is removed only once the record holds them.
      await saveKeptResults(id, kept);
      moved++;
    } catch {
      // Still readable where they are: the pane offers them all the same.
    }
  }
  return moved;
}
