import type { RowSource } from "./BulkJobOptions.js";
import type { Checkpoint, KnownWindow } from "./CheckpointStore.js";
import { firstDifferentRow } from "./rowFingerprint.js";
import { RowsChangedError } from "./RowsChangedError.js";

/**
 * The rows of a job, window by window, from the first window not all written, each checked
 * against what the checkpoint recorded of it (its size, its fingerprint): rows that are not the
 * recorded ones fail with `RowsChangedError` before their window is used, so no row is ever paired
 * with another row's outputs. A function source is asked for the rows from that window's first
 * row; an iterable is read from row 0 (the written windows are checked and skipped).
 *
 * ```
 * rows:      r0 r1 r2 | r3 r4 r5 | r6 r7      windowSize 3, written 4
 * windows:   (checked, skipped)  | w1 | w2
 * ```
 *
 * ## Example
 * ```ts
 * for await (const { index, rows } of readWindows(source, 500, checkpoint, inputsOf, () => false)) start(index, rows);
 * ```
 * @param source the job's rows
 * @param windowSize rows per window
 * @param checkpoint what the resumed job recorded (none: a new job)
 * @param fingerprintOf the value a fingerprint records for a row
 * @param stopping whether the job stops reading
 * @internal
 */
export async function* readWindows<Row>(
  source: RowSource<Row>,
  windowSize: number,
  checkpoint: Checkpoint | undefined,
  fingerprintOf: (row: Row) => unknown,
  stopping: () => boolean
): AsyncGenerator<{ index: number; rows: Row[] }> {
  const startRow = checkpoint?.writtenRows ?? 0;
  const recorded = (index: number): KnownWindow | undefined =>
    checkpoint?.windows.get(index) ?? checkpoint?.refused?.get(index);
  const check = (index: number, rows: readonly Row[]) =>
    checkRows(index, index * windowSize, rows, recorded(index), fingerprintOf);
  // A function is asked for the rows from the first window not all written.
  const fromRow = typeof source === "function" ? startRow - (startRow % windowSize) : 0;
  let rows: Row[] = [];
  let rowCount = fromRow;
  let index = fromRow / windowSize;
  for await (const row of typeof source === "function" ? source(fromRow) : source) {
    if (stopping()) return;
    rows.push(row);
    rowCount++;
    if (rows.length === windowSize) {
      check(index, rows);
      if (rowCount > startRow) yield { index, rows };
      rows = [];
      index++;
    }
  }
  if (rows.length > 0) {
    check(index, rows);
    if (rowCount > startRow) yield { index, rows };
    index++;
  }
  const sent = [...(checkpoint?.windows.keys() ?? []), ...(checkpoint?.refused?.keys() ?? [])];
  for (const known of sent) {
    if (known >= index) {
      throw new RowsChangedError(
        known,
        rowCount,
        `the rows end after row ${rowCount}, the checkpoint sent window ${known}`
      );
    }
  }
}

/** Refuses rows that are not those a window's intent recorded. */
function checkRows<Row>(
  index: number,
  firstRow: number,
  rows: readonly Row[],
  known: KnownWindow | undefined,
  fingerprintOf: (row: Row) => unknown
): void {
  if (!known) return;
  if (known.count !== rows.length) {
    throw new RowsChangedError(
      index,
      firstRow,
      `window ${index} had ${known.count} rows, now ${rows.length}`
    );
  }
  const place = firstDifferentRow(known.fingerprint, rows.map(fingerprintOf));
  if (place >= 0) {
    throw new RowsChangedError(index, firstRow + place, "a row's content differs");
  }
}
