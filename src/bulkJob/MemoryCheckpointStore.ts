import type {
  Checkpoint,
  CheckpointStore,
  JobOutcome,
  WindowIntent,
  WrittenMark,
} from "./CheckpointStore.js";
import type { CheckpointRecord } from "./CheckpointRecord.js";
import { replayCheckpoint } from "./replayCheckpoint.js";

/**
 * A checkpoint store in memory: the records in an array. For specs, and for programs whose job
 * lives as long as the process (keep `records` somewhere durable to survive a crash).
 *
 * ## Example
 * ```ts
 * const store = new MemoryCheckpointStore();
 * await new BulkJobRunner({ ...options, store }).run();
 * const again = new BulkJobRunner({ ...options, store, resume: store.load() });
 * ```
 */
export class MemoryCheckpointStore implements CheckpointStore {
  /** Every record, oldest first. */
  readonly records: CheckpointRecord[];

  /** @param records records of an earlier run of the job, to resume it */
  constructor(records: CheckpointRecord[] = []) {
    this.records = records;
  }

  /** The checkpoint of the records; undefined when there are none. */
  load(): Checkpoint | undefined {
    return this.records.length === 0 ? undefined : replayCheckpoint(this.records);
  }

  /** @param intent the window about to be sent */
  recordIntent(intent: WindowIntent): void {
    this.records.push({ type: "intent", ...intent });
  }

  /** @param window the window @param groupId its group */
  recordGroup(window: number, groupId: string): void {
    this.records.push({ type: "group", window, groupId });
  }

  /** @param window the window whose start the service refused */
  recordRefused(window: number): void {
    this.records.push({ type: "refused", window });
  }

  /** @param mark the written mark */
  recordWritten(mark: WrittenMark): void {
    this.records.push({ type: "written", ...mark, counts: { ...mark.counts } });
  }

  /** @param outcome how the run ended @param rows rows written */
  recordEnd(outcome: JobOutcome, rows: number): void {
    this.records.push({ type: "end", outcome, rows });
  }
}
