import type { CheckpointStore, WrittenMark } from "./CheckpointStore.js";
import type { ResultWriter } from "./ResultWriter.js";
import type { FinishedJobRow } from "./RowResult.js";
import type { WrittenRows } from "./WrittenRows.js";

/**
 * What a `WriteQueue` writes to and tells.
 *
 * ## Example
 * ```ts
 * const deps: WriteQueueDeps<Row> = { writer, store, written, now: Date.now, markEveryMs: 500, markAfterWrite: false, stopping: () => false, onWritten() {}, onError() {} };
 * ```
 * @internal
 */
export interface WriteQueueDeps<Row> {
  writer: ResultWriter<Row>;
  store: CheckpointStore;
  written: WrittenRows;
  now(): number;
  /** Least time between two written marks. */
  markEveryMs: number;
  /** Whether a mark follows each write (`writeOrder: "finished"`). */
  markAfterWrite: boolean;
  /** Whether the job is stopping (a mark is then due at once). */
  stopping(): boolean;
  /** After each write of rows. */
  onWritten(): void;
  /** The first writer or store failure (the job stops; nothing is cancelled). */
  onError(error: unknown): void;
}

/**
 * The engine's writes and records, one after another: rows handed over while nothing is being
 * written go out as they are; rows that finish while a write is queued or going on are folded
 * into one next write (one sheet sync for several polls). Written marks are recorded at most
 * every `markEveryMs` unless forced, after the writer's `flush`. The first failure stops it:
 * later work is skipped, and `error` holds it.
 *
 * ```
 * handOver:  a  b c   d
 * writes:    [a]─[b c]─[d]        (b and c folded while a was being written)
 * ```
 *
 * ## Example
 * ```ts
 * const writes = new WriteQueue(deps);
 * writes.handOver(rows);
 * await writes.idle();
 * ```
 * @internal
 */
export class WriteQueue<Row> {
  /** The failure that stopped the queue. */
  error: { error: unknown } | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Rows handed over and waiting for the next write. */
  private pending: FinishedJobRow<Row>[] = [];
  /** Whether a queued write will take `pending` when it starts. */
  private writeQueued = false;
  /** Writes queued or going on. */
  private writesQueued = 0;
  private markedRows: number;
  private markedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: WriteQueueDeps<Row>) {
    this.markedRows = deps.written.rows;
  }

  /** The rows written now are the rows marked (after a resume). */
  resetMarked(): void {
    this.markedRows = this.deps.written.rows;
  }

  /** Resolves when every write and record queued so far is over. */
  idle(): Promise<void> {
    return this.writing;
  }

  /** @param rows finished rows, for the writer */
  handOver(rows: FinishedJobRow<Row>[]): void {
    if (this.writesQueued === 0) {
      this.queueWrite(() => rows);
      return;
    }
    for (const row of rows) this.pending.push(row);
    if (this.writeQueued) return;
    this.writeQueued = true;
    this.queueWrite(() => {
      this.writeQueued = false;
      const batch = this.pending;
      this.pending = [];
      return batch;
    });
  }

  /**
   * Records a written mark, at most every `markEveryMs` unless `force`.
   * @param force record it whatever the time since the last one
   */
  async mark(force: boolean): Promise<void> {
    const { written, store, writer } = this.deps;
    const now = this.deps.now();
    // Rows written since the last mark are only read back from their groups after a crash (never
    // run again), so a mark every half second is enough.
    if (written.rows === this.markedRows) return;
    if (!force && !this.deps.stopping() && now - this.markedAt < this.deps.markEveryMs) return;
    this.markedAt = now;
    const rows = written.rows;
    const mark = written.mark();
    await writer.flush?.();
    await store.recordWritten(mark);
    this.markedRows = rows;
  }

  /**
   * The last rows made durable, as a mark for a store that saves all at once (it gets it with
   * the end); undefined when every row written is marked.
   * @return the mark, after the writer's `flush`
   */
  async lastMark(): Promise<WrittenMark | undefined> {
    if (this.deps.written.rows === this.markedRows) return undefined;
    await this.deps.writer.flush?.();
    return this.deps.written.mark();
  }

  /**
   * A record other than a mark; with a store that saves all at once, it restarts the mark clock.
   * @param work the record
   */
  async record(work: () => void | Promise<void>): Promise<void> {
    await work();
    if (this.deps.store.savesAllAtOnce) this.markedAt = this.deps.now();
  }

  /**
   * Runs writer and store calls one after another; a failure stops the queue.
   * @param work the call
   * @return resolves when it is over (or skipped)
   */
  guard(work: () => void | Promise<void>): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.error) return;
      try {
        await work();
      } catch (error) {
        this.fail(error);
      }
    });
    return this.writing;
  }

  /** @param error a failure outside the queue that stops it too (a lost lease) */
  fail(error: unknown): void {
    if (this.error) return;
    this.error = { error };
    this.deps.onError(error);
  }

  private queueWrite(take: () => FinishedJobRow<Row>[]): void {
    this.writesQueued++;
    void this.guard(async () => {
      const batch = take();
      if (batch.length === 0) return;
      await this.deps.writer.write(batch);
      this.deps.written.add(batch);
      this.deps.onWritten();
      if (this.deps.markAfterWrite) await this.mark(false);
    }).finally(() => this.writesQueued--);
  }
}
