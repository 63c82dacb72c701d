import type { Observable } from "rxjs";
import type { BulkResumeToken, BulkSnapshot } from "../types.js";
import type { BulkJobOptions } from "./BulkJobOptions.js";
import type { KnownWindow } from "./CheckpointStore.js";
import { chunkPlan, type ChunkPlan } from "./chunkPlan.js";
import { unnamedRunsFrom, type JobWindow } from "./JobWindow.js";
import { resumeByChunks } from "./resumeByChunks.js";

/**
 * The snapshots of a resumed window whose checkpoint names a group: re-attached by chunks when
 * its chunk intents say some chunks surely were not sent (`resumeByChunks`), else re-attached
 * whole (`resumeBulk`), never sent again. Undefined when no group is known: the caller decides
 * between `unknown` and sending it again.
 *
 * ## Example
 * ```ts
 * const source = resumedWindowSource(options, window, known, detach$, chunkIntent);
 * if (source === undefined) markUnknown(window);
 * ```
 * @param options the job's options
 * @param window the window (its group and token are set here)
 * @param known what the checkpoint knows of the window
 * @param detach$ emits when the job ends the bulks without cancelling them
 * @param chunkIntent records a chunk's intent before its bulkStart can leave
 * @return the window's snapshots, or undefined when no group is known
 * @internal
 */
export function resumedWindowSource<Row>(
  options: BulkJobOptions<Row>,
  window: JobWindow<Row>,
  known: KnownWindow,
  detach$: Observable<void>,
  chunkIntent: (chunk: BulkResumeToken, prefix: ChunkPlan["prefix"]) => Promise<void>
): Observable<BulkSnapshot> | undefined {
  const plan = known.token === undefined ? undefined : chunkPlan(known.token);
  if (known.token !== undefined && plan !== undefined) {
    return resumeByChunks(options, window, known.token, plan, detach$, chunkIntent);
  }
  if (known.groupId === undefined && known.token?.groupIds.some((id) => id !== "") !== true) {
    return undefined;
  }
  const knownSent = known.sent ?? known.count;
  const token = known.token ?? {
    spellId: options.spellId,
    groupIds: [known.groupId!],
    chunkSizes: [knownSent],
  };
  window.groupId = token.groupIds[0];
  window.token = token;
  window.unnamedFrom = unnamedRunsFrom(token);
  return options.client.resumeBulk(token, knownSent, { detach: detach$ });
}
