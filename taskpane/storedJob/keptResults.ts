import type { KeptResult } from "./KeptResult.js";
import {
  KEPT_RESULTS_FIELD,
  keptResultsFromSetting,
  keptResultsRecordText,
  readKeptResultsRecord,
} from "./keptResultsRecord.js";
import { rowRecord, saveRowRecord } from "./rowRecordStore.js";
import { EXCEL_MAX_ROWS } from "./storedJobProblem.js";
import { BULK_JOB_SETTING, BULK_KEPT_SETTING, jobKey, saveSettings } from "./jobSettings.js";

/**
 * Stores a job's kept results (see `KeptResult`): written only when one more is kept, which
 * happens only after a row was deleted mid-run. A job with an id keeps them in its per-row record
 * (`rowRecordStore`, field `kept`, one line per result, so one more rewrites the field's last
 * cell only): 2,000 deleted rows of 1 KB outputs are 2 MB, and Office refuses a settings save of
 * about 1 MB. Its settings keep nothing of them; what the previous version kept there is moved.
 * A job without an id (an earlier version's) keeps them in the settings as before.
 *
 * ## Example
 * ```ts
 * await saveKeptResults(job.id, [{ status: "success", outputs: { summary: "…" } }]);
 * ```
 */
export async function saveKeptResults(
  id: string | undefined,
  kept: readonly KeptResult[]
): Promise<void> {
  const settings = Office.context.document.settings;
  if (id === undefined) {
    settings.set(BULK_KEPT_SETTING, kept);
    await saveSettings();
    return;
  }
  await saveRowRecord(id, { [KEPT_RESULTS_FIELD]: keptResultsRecordText(kept) });
  const previous = jobKey(BULK_KEPT_SETTING, id);
  // Removed only once the record holds them: a failed write leaves them where they were.
  if (settings.get(previous) !== null && settings.get(previous) !== undefined) {
    settings.remove(previous);
    await saveSettings();
  }
}

/**
 * A job's kept results (empty when none, or when they fail the checks of
 * `readKeptResultsRecord`): from its per-row record as `openRowRecords` read it or the pane last
 * saved it (no sync), or, for a job stored by the previous version, from the setting
 * `spellrun.bulkKept.<id>`.
 *
 * ## Example
 * ```ts
 * const kept = loadKeptResults(job.id);
 * ```
 */
export function loadKeptResults(id: string | undefined): KeptResult[] {
  const runs = keptRunsBound(id);
  const text = id === undefined ? undefined : rowRecord(id)?.[KEPT_RESULTS_FIELD];
  if (text !== undefined) {
    const read = readKeptResultsRecord(text, runs);
    return "kept" in read ? read.kept : [];
  }
  const setting = Office.context.document.settings.get(jobKey(BULK_KEPT_SETTING, id)) as unknown;
  return keptResultsFromSetting(setting, runs);
}

/** The most results a stored job can have kept: its run count when its settings say it. */
function keptRunsBound(id: string | undefined): number {
  const stored = Office.context.document.settings.get(jobKey(BULK_JOB_SETTING, id)) as unknown;
  const runs = (stored as { runs?: unknown } | null)?.runs;
  return Number.isSafeInteger(runs) && (runs as number) >= 0 && (runs as number) <= EXCEL_MAX_ROWS
    ? (runs as number)
    : EXCEL_MAX_ROWS;
}
