import { OutputLayout } from "../sheet/outputLayout.js";
import type { BulkJob } from "./BulkJob.js";
import type { WriteTarget } from "../sheet/WriteTarget.js";

/**
 * The `WriteTarget` of a stored job: where its status and outputs go.
 *
 * - `"rows"`: the block is found by its name before each write and the runs' rows by their
 *   inputs (the job's `rows` array is shared, so rows found again are saved with the job);
 * - `"block"`: the block is found by its name, no run rows (for writing under the block);
 * - `"none"`: the positions as stored (marks written before the run, right after the block was
 *   named).
 *
 * ## Example
 * ```ts
 * await writeOutputs(writeTargetOf(job, "rows"), results);
 * ```
 */
export function writeTargetOf(job: BulkJob, track: "rows" | "block" | "none"): WriteTarget {
  const target: WriteTarget = {
    sheet: job.sheetId ?? job.sheet,
    headerRow: job.headerRow,
    inputColumns: job.inputColumns,
    layout: new OutputLayout(job.statusColumn, job.outputNames),
    headersWritten: 0,
    ownedWidth: job.ownedWidth,
  };
  if (track === "none") return target;
  target.blockName = job.blockName;
  target.inputHeaders = job.inputHeaders ?? job.inputNames;
  if (track === "rows") {
    target.rows = job.rows;
    target.fingerprints = job.fingerprints;
  }
  return target;
}
