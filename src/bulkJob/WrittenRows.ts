import type { Checkpoint, WrittenMark } from "./CheckpointStore.js";
import type { RowStatusCounts } from "./RowResult.js";

/**
 * The rows of a job written so far (their write resolved), including those written before a
 * resume: the first `prefix` rows, the rows written past it (`writeOrder: "finished"`), and the
 * counts by status. A written mark is taken from it.
 *
 * ## Example
 * ```ts
 * const written = new WrittenRows(checkpoint);
 * written.add([{ index: 0, status: "success" }]);
 * written.mark(); // { rows: 1, counts: { success: 1 } }
 * ```
 * @internal
 */
export class WrittenRows {
  /** Rows `0 … prefix - 1` are all written. */
  prefix = 0;
  /** Rows written past `prefix`. */
  readonly after = new Set<number>();
  /** Rows written in all. */
  rows = 0;
  counts: RowStatusCounts = {};

  /** @param checkpoint where a resumed job stood */
  constructor(checkpoint?: Checkpoint) {
    this.restore(checkpoint);
  }

  /** @param checkpoint where a resumed job stood (none: a new job) */
  restore(checkpoint: Checkpoint | undefined): void {
    this.prefix = checkpoint?.writtenRows ?? 0;
    this.after.clear();
    for (const row of checkpoint?.alsoWritten ?? []) {
      if (row >= this.prefix) this.after.add(row);
    }
    this.rows = this.prefix + this.after.size;
    this.counts = { ...checkpoint?.counts };
  }

  /** @param batch rows whose write resolved */
  add(batch: readonly { index: number; status: keyof RowStatusCounts }[]): void {
    for (const row of batch) {
      this.counts[row.status] = (this.counts[row.status] ?? 0) + 1;
      this.after.add(row.index);
    }
    this.rows += batch.length;
    while (this.after.delete(this.prefix)) this.prefix++;
  }

  /** @return the rows written now, as a mark */
  mark(): WrittenMark {
    const alsoWritten = [...this.after].sort((a, b) => a - b);
    return {
      rows: this.prefix,
      counts: { ...this.counts },
      ...(alsoWritten.length > 0 ? { alsoWritten } : {}),
    };
  }
}
