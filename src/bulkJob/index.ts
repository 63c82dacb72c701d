/**
 * The bulk-job engine: rows in windows through `bulk` / `resumeBulk`, a checkpoint store and a
 * result writer at the edges, one failure policy and one cancel policy.
 *
 * ## Example
 * ```ts
 * import { BulkJobRunner, MemoryCheckpointStore, callbackResultWriter } from "spellrun";
 * ```
 * @packageDocumentation
 */
export * from "./BulkJobRunner.js";
export * from "./BulkJobOptions.js";
export * from "./CheckpointStore.js";
export * from "./CheckpointRecord.js";
export * from "./retryRows.js";
export * from "./LeaseHeldError.js";
export * from "./RowsChangedError.js";
export { windowFingerprint, firstDifferentRow } from "./rowFingerprint.js";
export * from "./replayCheckpoint.js";
export * from "./parseCheckpointRecord.js";
export * from "./resumeTokenNeeded.js";
export * from "./MemoryCheckpointStore.js";
export * from "./ResultWriter.js";
export * from "./callbackResultWriter.js";
export * from "./classifyJobFailure.js";
export * from "./RowResult.js";
