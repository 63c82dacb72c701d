import type { RowStatus } from "spellrun";
import { removeInsertedColumn } from "../sheet/removeInsertedColumn.js";
import { deleteBlockName } from "../sheet/trackedBlock.js";
import { clearBulkJob, saveBulkJob } from "../storedJob/jobStore.js";
import type { ActiveBulk } from "./ActiveBulk.js";
import { retryableRunsOf } from "./retryableRuns.js";

/**
 * The bulk is over: its job is forgotten, unless results whose rows were deleted are kept
 * (then it stays, marked `keptOnly`, so the pane can offer them after a reload).
 *
 * ## Example
 * ```ts
 * await endJob(active);
 * ```
 *
 * @param active The bulk.
 */
export async function endJob(active: ActiveBulk): Promise<void> {
  if (active.kept.length === 0) {
    await clearBulkJob(active.job.id);
    return;
  }
  active.job.keptOnly = true;
  active.job.outputNames = active.target.layout.names;
  await saveBulkJob(active.job);
}

/**
 * Deletes the block's name once nothing may need it (no retry, nothing kept).
 *
 * ## Example
 * ```ts
 * await releaseBlock(active);
 * ```
 *
 * @param active The bulk.
 */
export async function releaseBlock(active: ActiveBulk): Promise<void> {
  const name = active.job.blockName;
  if (!name || active.kept.length > 0 || retryableRunsOf(active).length > 0) return;
  try {
    await deleteBlockName(name);
  } catch {
    // A name left behind harms nothing: it only names the block.
  }
}

/**
 * After a start the service refused: the column it inserted goes again (when it holds only
 * what the start wrote), and so does the block's name; nothing is offered to retry.
 *
 * ## Example
 * ```ts
 * await undoStart(active);
 * ```
 *
 * @param active The bulk whose start was refused.
 */
export async function undoStart(active: ActiveBulk): Promise<void> {
  const column = active.insertedColumn;
  if (column !== undefined) {
    try {
      const statuses = active.startStatuses ?? new Map<number, string>();
      await removeInsertedColumn(
        active.job.sheetId ?? active.job.sheet,
        column,
        (row, value) => row === active.job.headerRow || statuses.get(row) === value
      );
    } catch {
      // Left in place: an empty column harms nothing, and the user can delete it.
    }
  }
  // Nothing to retry: the same start would be refused again (Run starts afresh).
  active.startRefused = true;
  await releaseBlock(active);
}

/**
 * How many of the bulk's rows were written with `status`.
 *
 * ## Example
 * ```ts
 * const rest = countStatus(active, "expired");
 * ```
 *
 * @param active The bulk.
 * @param status The status.
 * @return The count.
 */
export function countStatus(active: ActiveBulk, status: RowStatus): number {
  let count = 0;
  for (const each of active.statuses.values()) if (each === status) count++;
  return count;
}
