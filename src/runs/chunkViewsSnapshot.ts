import { countRunStates } from "../countRunStates.js";
import type { BulkRunEntry, BulkSnapshot } from "../types.js";
import type { ChunkView } from "./ChunkView.js";

/**
 * The snapshot of a bulk from the latest view of each of its chunks: rows in chunk order, the
 * group ids known so far, counts, and the resume token.
 *
 * ## Example
 * ```ts
 * combineLatest(views).pipe(map((latest) => chunkViewsSnapshot("echo", [500, 12], latest)));
 * ```
 * @param spellId the spell's id
 * @param chunkSizes the number of inputs of each chunk
 * @param views the latest view of each chunk
 * @return the combined snapshot
 * @internal
 */
export function chunkViewsSnapshot(
  spellId: string,
  chunkSizes: number[],
  views: ChunkView[]
): BulkSnapshot {
  const runs: BulkRunEntry[] = [];
  const groupIds: string[] = [];
  for (const view of views) {
    if (view.groupId !== undefined) groupIds.push(view.groupId);
    for (const run of view.runs) runs.push(run);
  }
  return {
    groupId: groupIds[0] ?? "",
    groupIds,
    runs,
    done: views.every((view) => view.done),
    total: runs.length,
    counts: countRunStates(runs),
    resume: { spellId, groupIds: [...groupIds], chunkSizes: [...chunkSizes] },
  };
}
