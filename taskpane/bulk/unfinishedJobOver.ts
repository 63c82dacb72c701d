import type { BulkJob } from "../storedJob/BulkJob.js";
import type { SelectionData } from "../sheet/readSelection.js";
import type { BulkPlan } from "./planBulk.js";

/**
 * The unfinished stored job whose rows and columns (as last seen) meet the planned block, if any:
 * its runs are paid for, so a new bulk there waits until it is resumed or forgotten. A job that
 * only keeps results writes nothing more and is no obstacle.
 *
 * ## Example
 * ```ts
 * const unfinished = unfinishedJobOver(loadBulkJobs(), selection, plan);
 * ```
 *
 * @param jobs The stored jobs.
 * @param selection The planned block.
 * @param plan Where its results would go.
 * @return The job in the way, or `undefined`.
 */
export function unfinishedJobOver(
  jobs: readonly BulkJob[],
  selection: SelectionData,
  plan: BulkPlan
): BulkJob | undefined {
  return jobs.find((job) => overlaps(job, selection, plan));
}

/**
 * What the pane says of an unfinished job over the planned rows (the plan's warning and the
 * refusal of Run are the same sentence).
 *
 * ## Example
 * ```ts
 * throw new Error(unfinishedJobMessage(job));
 * ```
 *
 * @param job The job in the way.
 * @return The sentence.
 */
export function unfinishedJobMessage(job: BulkJob): string {
  return (
    `An unfinished bulk over these rows (spell "${job.spellId}", ${job.rows.length} rows) ` +
    "is kept in this workbook: Resume or Forget it before starting another here (see above)."
  );
}

/** True when a stored job's rows and columns (as last seen) meet the planned block. */
function overlaps(job: BulkJob, selection: SelectionData, plan: BulkPlan): boolean {
  if (job.keptOnly) return false; // over: it writes nothing more
  const sameSheet =
    job.sheetId !== undefined ? job.sheetId === selection.sheetId : job.sheet === selection.sheet;
  if (!sameSheet) return false;
  // A loop, not a spread: a whole sheet's rows overflow the call stack as arguments.
  let top = job.headerRow;
  let bottom = job.headerRow;
  for (const row of job.rows) {
    if (row < 0) continue;
    top = Math.min(top, row);
    bottom = Math.max(bottom, row);
  }
  const left = Math.min(...job.inputColumns);
  const right = job.statusColumn + job.outputNames.length;
  const { block } = selection;
  return (
    top <= block.top + block.rowCount - 1 &&
    bottom >= block.top &&
    left <= plan.statusColumn + plan.ownedWidth &&
    right >= block.left
  );
}
