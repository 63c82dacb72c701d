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
export { BulkJobRunner } from "./BulkJobRunner.js";
export type {
  BulkJobOptions,
  BulkJobResult,
  BulkJobProgress,
  JobFailure,
  RowSource,
} from "./BulkJobOptions.js";
export type {
  Checkpoint,
  CheckpointStore,
  JobLease,
  JobOutcome,
  KnownWindow,
  WindowIntent,
  WrittenMark,
} from "./CheckpointStore.js";
export type { CheckpointRecord } from "./CheckpointRecord.js";
export { retryRows, retriesStatus, type RetryRowsOptions } from "./retryRows.js";
export { LeaseHeldError } from "./LeaseHeldError.js";
export { RowsChangedError } from "./RowsChangedError.js";
export { windowFingerprint, firstDifferentRow } from "./rowFingerprint.js";
export { replayCheckpoint } from "./replayCheckpoint.js";
export { parseCheckpointRecord, type ParsedCheckpointRecord } from "./parseCheckpointRecord.js";
export { resumeTokenNeeded } from "./resumeTokenNeeded.js";
export { MemoryCheckpointStore } from "./MemoryCheckpointStore.js";
export type { ResultWriter } from "./ResultWriter.js";
export { callbackResultWriter } from "./callbackResultWriter.js";
export { classifyJobFailure, startedNothing, type JobFailureKind } from "./classifyJobFailure.js";
export {
  ROW_STATUSES,
  RETRYABLE_STATUSES,
  type RowStatus,
  type RowResult,
  type FinishedJobRow,
  type RowStatusCounts,
} from "./RowResult.js";
