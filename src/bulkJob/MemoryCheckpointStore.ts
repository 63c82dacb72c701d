import type { BulkResumeToken } from "../types.js";
import type {
  Checkpoint,
  CheckpointStore,
  JobLease,
  JobOutcome,
  WindowIntent,
  WrittenMark,
} from "./CheckpointStore.js";
import type { CheckpointRecord } from "./CheckpointRecord.js";
import { LeaseHeldError } from "./LeaseHeldError.js";
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

  /** The lease held now, if any (workers sharing this object share it). */
  lease: { owner: string; expiresAt: number } | undefined;

  /**
   * @param records records of an earlier run of the job, to resume it
   * @param now the lease's clock
   */
  constructor(
    records: CheckpointRecord[] = [],
    private readonly now: () => number = Date.now
  ) {
    this.records = records;
  }

  /** @param lease who takes or renews the lease, for how long */
  acquireLease(lease: JobLease): void {
    const now = this.now();
    const held = this.lease;
    if (held && held.owner !== lease.owner && held.expiresAt > now) {
      throw new LeaseHeldError(held.owner, held.expiresAt);
    }
    this.lease = { owner: lease.owner, expiresAt: now + lease.ttlMs };
  }

  /** @param owner the worker giving its lease up */
  releaseLease(owner: string): void {
    if (this.lease?.owner === owner) this.lease = undefined;
  }

  /** The checkpoint of the records; undefined when there are none. */
  load(): Checkpoint | undefined {
    return this.records.length === 0 ? undefined : replayCheckpoint(this.records);
  }

  /** @param intent the window about to be sent */
  recordIntent(intent: WindowIntent): void {
    this.records.push({ type: "intent", ...intent });
  }

  /** @param window the window @param groupId its group @param token the core's resume token */
  recordGroup(window: number, groupId: string, token?: BulkResumeToken): void {
    this.records.push({ type: "group", window, groupId, ...(token ? { token } : {}) });
  }

  /** @param window the window whose start the service refused */
  recordRefused(window: number): void {
    this.records.push({ type: "refused", window });
  }

  /** @param mark the written mark */
  recordWritten(mark: WrittenMark): void {
    const { alsoWritten, ...rest } = mark;
    this.records.push({
      type: "written",
      ...rest,
      counts: { ...mark.counts },
      ...(alsoWritten && alsoWritten.length > 0 ? { alsoWritten: [...alsoWritten] } : {}),
    });
  }

  /** @param outcome how the run ended @param rows rows written */
  recordEnd(outcome: JobOutcome, rows: number): void {
    this.records.push({ type: "end", outcome, rows });
  }
}
