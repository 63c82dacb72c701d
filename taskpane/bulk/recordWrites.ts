import type { FinishedJobRow } from "spellrun";
import { statusText } from "../sheet/statusText.js";
import type { WriteReport } from "../sheet/WriteReport.js";
import { saveBulkJob } from "../storedJob/jobStore.js";
import { saveKeptResults } from "../storedJob/keptResults.js";
import type { ActiveBulk } from "./ActiveBulk.js";

/**
 * After each write of a bulk: what the sheet now holds is recorded on the bulk (statuses, rows
 * handled, stale and cancelled marks), results whose rows are gone (or whose output cells the
 * user typed into) are kept and saved at once, and moved rows saved with the job.
 *
 * ## Example
 * ```ts
 * new SheetResultWriter(active.target, (report, rows) => recordWrites(active, report, rows));
 * ```
 *
 * @param active The bulk.
 * @param report What the write did.
 * @param rows The rows written.
 */
export async function recordWrites(
  active: ActiveBulk,
  report: WriteReport,
  rows: readonly FinishedJobRow<number>[]
): Promise<void> {
  const { job } = active;
  for (const row of rows) {
    active.statuses.set(row.index, row.status);
    active.handled.add(row.index);
    if (row.status === "cancelled") active.cancelled.add(row.index);
  }
  for (const run of report.stale) active.stale.add(run);
  const lost = new Set(report.lost);
  const kept = rows.filter((row) => lost.has(row.index) && row.status === "success");
  if (kept.length > 0) {
    // Paid results whose rows are gone: saved at once, so a reload does not lose them.
    active.kept.push(
      ...kept.map(({ index, status, outputs }) => ({
        status: statusText({ state: status as "success", outputs }),
        outputs,
        inputs: active.cells[index]?.values,
        formats: active.cells[index]?.formats,
      }))
    );
    await saveKeptResults(job.id, active.kept);
  }
  job.outputNames = active.target.layout.names;
  job.ownedWidth = active.target.ownedWidth;
  if (active.target.moved) {
    // The block or its rows moved: the job's positions are saved again (rare: after an edit).
    active.target.moved = false;
    job.headerRow = active.target.headerRow;
    job.inputColumns = active.target.inputColumns;
    job.statusColumn = active.target.layout.statusColumn;
    await saveBulkJob(job);
  }
}
