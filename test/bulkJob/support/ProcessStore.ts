import type {
  Checkpoint,
  CheckpointStore,
  JobLease,
  JobOutcome,
  MemoryCheckpointStore,
  WindowIntent,
  WrittenMark,
} from "../../../src/index.js";
import { Killed } from "./Killed.js";

/** The job's store as one process sees it: dead after its `limit`-th record. */
export class ProcessStore implements CheckpointStore {
  dead = false;
  private records = 0;

  /**
   * @param base the job's store, shared by every process
   * @param limit the record at which the process dies (none: it lives)
   * @param onKill told when it dies
   */
  constructor(
    private readonly base: MemoryCheckpointStore,
    private readonly limit: number | undefined,
    private readonly onKill: () => void
  ) {}

  load(): Checkpoint | undefined {
    return this.base.load();
  }
  acquireLease(lease: JobLease): void {
    this.alive();
    this.base.acquireLease(lease);
  }
  releaseLease(owner: string): void {
    if (!this.dead) this.base.releaseLease(owner);
  }
  recordIntent(intent: WindowIntent): void {
    this.count();
    this.base.recordIntent(intent);
  }
  recordGroup(
    window: number,
    groupId: string,
    token?: Parameters<CheckpointStore["recordGroup"]>[2]
  ): void {
    this.count();
    this.base.recordGroup(window, groupId, token);
  }
  recordRefused(window: number): void {
    this.count();
    this.base.recordRefused(window);
  }
  recordWritten(mark: WrittenMark): void {
    this.count();
    this.base.recordWritten(mark);
  }
  recordEnd(outcome: JobOutcome, rows: number): void {
    this.count();
    this.base.recordEnd(outcome, rows);
  }
  private count(): void {
    this.alive();
    this.records++;
    if (this.limit !== undefined && this.records >= this.limit) {
      this.onKill();
      throw new Killed();
    }
  }
  private alive(): void {
    if (this.dead) throw new Killed();
  }
}
