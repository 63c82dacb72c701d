import type { Observable } from "rxjs";
import type { ClientParts } from "./ClientParts.js";
import type { RunSnapshot } from "../types.js";
import { bulkContextOf } from "./bulkContextOf.js";
import { RunBatcher } from "./RunBatcher.js";
import type { StartedBulkRow, StartedRun } from "./StartedRun.js";

/**
 * One polling-mode run through the client's batcher, built on the first batched run (this
 * module is loaded then: a client without `batch` never loads it).
 *
 * ## Example
 * ```ts
 * batchedRun(parts, "echo", { text: "hi" }).subscribe(console.log);
 * ```
 * @param parts the client's parts (with `batchSettings`)
 * @param spellId the spell's id
 * @param inputs the spell's inputs
 * @param started told when its bulkStart goes out, then its row once the service accepted it
 * @return a cold Observable of this call's snapshots
 * @internal
 */
export function batchedRun(
  parts: ClientParts,
  spellId: string,
  inputs: Record<string, unknown>,
  started?: (run?: StartedRun) => void
): Observable<RunSnapshot> {
  return batcherOf(parts).run(spellId, inputs, started);
}

/**
 * A row of a batched bulk run started earlier (before a reload), watched again through the
 * client's batcher (see `RunBatcher.rejoin`).
 *
 * ## Example
 * ```ts
 * rejoinedRow(parts, { spellId: "echo", groupId: "g-1", row: 0, size: 3 }).subscribe(console.log);
 * ```
 * @param parts the client's parts
 * @param started the row and its group
 * @return a cold Observable of the row's snapshots
 * @internal
 */
export function rejoinedRow(parts: ClientParts, started: StartedBulkRow): Observable<RunSnapshot> {
  return batcherOf(parts).rejoin(started);
}

function batcherOf(parts: ClientParts): RunBatcher {
  // A client without `batch` rejoining a row after a reload still polls it the batcher's way.
  parts.batcher ??= new RunBatcher(
    () => bulkContextOf(parts),
    parts.batchSettings ?? { windowMs: 0, maxSize: parts.bulkChunkSize }
  );
  return parts.batcher;
}
