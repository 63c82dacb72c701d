import type { BulkResumeToken } from "../types.js";
import type { JobOutcome, WindowIntent } from "./CheckpointStore.js";
import type { RowStatusCounts } from "./RowResult.js";

/**
 * One thing a checkpoint store recorded, in the order the engine recorded it. Stores that append
 * (a journal file, memory) keep these and rebuild the `Checkpoint` with `replayCheckpoint`.
 *
 * ## Example
 * ```ts
 * const record: CheckpointRecord = { type: "group", window: 3, groupId: "bulk_3_ab12" };
 * ```
 */
export type CheckpointRecord =
  | ({ type: "intent" } & WindowIntent)
  /**
   * `token` is present when the store keeps the core's resume token (see `KnownWindow.token`);
   * `groupId` is `""` in a chunk intent recorded before any group of the window was named.
   */
  | { type: "group"; window: number; groupId: string; token?: BulkResumeToken }
  /** The service surely started nothing for the window: a resume may send it. */
  | { type: "refused"; window: number }
  /** Counts are absent in records of the first journals. */
  | { type: "written"; rows: number; counts?: RowStatusCounts; alsoWritten?: readonly number[] }
  | { type: "end"; outcome: JobOutcome; rows: number };
