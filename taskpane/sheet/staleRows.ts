import { blockAddress } from "./a1Address.js";
import { chunkByBytes } from "./payloadBytes.js";
import { rowFingerprint } from "./rowFingerprint.js";
import type { CellScalar } from "./toCellWrite.js";
import type { WriteTarget } from "./WriteTarget.js";
import { ASSUMED_INPUT_CELL_BYTES, MAX_GAP_ROWS } from "./blockLimits.js";
import type { RowWrite } from "./RowWrite.js";
import type { WriteReport } from "./WriteReport.js";

/**
 * Queues a read of the input cells of the rows `top`.. of a write (no sync): read after the
 * write in the same sync, so a result written beside another record is seen at once.
 *
 * ## Example
 * ```ts
 * const inputs = readInputs(sheet, target, { top: 4, rows });
 * ```
 *
 * @param sheet The job's sheet.
 * @param target Where the job's inputs are.
 * @param checked The first row and the rows written.
 * @return The range, loaded with `values` at the next sync.
 */
export function readInputs(
  sheet: Excel.Worksheet,
  target: WriteTarget,
  checked: { top: number; rows: RowWrite[] }
): Excel.Range {
  const left = Math.min(...target.inputColumns);
  const last = checked.rows[checked.rows.length - 1].row;
  return sheet
    .getRange(
      blockAddress({
        top: checked.top,
        left,
        rowCount: last - checked.top + 1,
        columnCount: Math.max(...target.inputColumns) - left + 1,
      })
    )
    .load("values");
}

/**
 * The fingerprint of row `r` of a `readInputs` range, after its sync.
 *
 * ## Example
 * ```ts
 * if (inputFingerprint(target, inputs, r) !== result.fingerprint) markStale(result);
 * ```
 *
 * @param target Where the job's inputs are.
 * @param inputs The loaded range.
 * @param r The row within it.
 * @return The row's fingerprint.
 */
export function inputFingerprint(target: WriteTarget, inputs: Excel.Range, r: number): string {
  const left = Math.min(...target.inputColumns);
  const cells = inputs.values[r] as CellScalar[];
  return rowFingerprint(target.inputColumns.map((column) => cells[column - left]));
}

/**
 * Stale rows: a finished run's row whose input cells no longer hold what was sent (edited during
 * the run). Its outputs are not written there (they would describe other inputs); it is marked
 * `stale` instead, or, when a job tracks its rows, found again by its inputs elsewhere
 * (`relocateRows`). This reads the input cells of the rows that need checking, in batches under
 * the payload budget, and returns the runs whose inputs changed.
 *
 * ## Example
 * ```ts
 * const stale = await findStaleRows(context, sheet, target, sorted, PAYLOAD_BUDGET_BYTES, report);
 * ```
 *
 * @param context The Excel context.
 * @param sheet The job's sheet.
 * @param target Where the job's inputs are.
 * @param sorted The rows to write, by row.
 * @param budgetBytes The payload budget of one sync.
 * @param report Counts the read syncs.
 * @return The runs whose inputs changed.
 */
export async function findStaleRows(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  target: WriteTarget,
  sorted: readonly RowWrite[],
  budgetBytes: number,
  report: WriteReport
): Promise<Set<number>> {
  const stale = new Set<number>();
  const checked = sorted.filter((result) => result.checkInputs !== false);
  if (checked.length === 0 || target.inputColumns.length === 0) return stale;
  const left = Math.min(...target.inputColumns);
  const columnCount = Math.max(...target.inputColumns) - left + 1;
  const rowBytes = columnCount * ASSUMED_INPUT_CELL_BYTES;
  const blocks = segments(checked, MAX_GAP_ROWS, () => rowBytes, budgetBytes);
  for (const [start, end] of chunkByBytes(
    blocks.length,
    (i) => (blocks[i][blocks[i].length - 1].row - blocks[i][0].row + 1) * rowBytes,
    budgetBytes
  )) {
    const loaded = blocks.slice(start, end).map((block) => {
      const first = block[0].row;
      const rowCount = block[block.length - 1].row - first + 1;
      const range = sheet.getRange(blockAddress({ top: first, left, rowCount, columnCount }));
      range.load("values");
      return { block, first, range };
    });
    report.readSyncs++;
    // Usually one pass; more only when one batch would exceed Office's payload limit.
    // eslint-disable-next-line office-addins/no-context-sync-in-loop
    await context.sync();
    for (const { block, first, range } of loaded) {
      for (const result of block) {
        const cells = range.values[result.row - first] as CellScalar[];
        const now = target.inputColumns.map((column) => cells[column - left]);
        if (rowFingerprint(now) !== result.fingerprint) stale.add(result.run);
      }
    }
  }
  return stale;
}

/**
 * Splits rows (sorted) into groups whose neighbours are at most `maxGap` rows apart and whose
 * estimated bytes stay under `budget`, so that no single range exceeds Office's payload limit.
 *
 * ## Example
 * ```ts
 * for (const block of segments(sorted, MAX_GAP_ROWS, () => 64, budget)) write(block);
 * ```
 */
export function segments<T extends { row: number }>(
  sorted: readonly T[],
  maxGap: number,
  bytesOf: (item: T) => number,
  budget: number
): T[][] {
  const groups: T[][] = [];
  let groupBytes = 0;
  for (const item of sorted) {
    const last = groups[groups.length - 1];
    const bytes = bytesOf(item);
    if (
      last &&
      item.row - last[last.length - 1].row <= maxGap + 1 &&
      groupBytes + bytes <= budget
    ) {
      last.push(item);
      groupBytes += bytes;
    } else {
      groups.push([item]);
      groupBytes = bytes;
    }
  }
  return groups;
}

/**
 * True when a row's output cells were empty when its run was planned and one that this write
 * fills held something just before it (read in the same sync): the user typed it during the run.
 *
 * ## Example
 * ```ts
 * if (typedDuringRun(target, result, before, written)) keep(result);
 * ```
 */
export function typedDuringRun(
  target: WriteTarget,
  result: RowWrite,
  before: readonly CellScalar[],
  written: readonly (CellScalar | null)[] | undefined
): boolean {
  if (!result.outputs || result.run < 0 || !target.outputsEmptyAtPlan?.[result.run]) return false;
  for (let c = 1; c < before.length; c++) {
    if (written?.[c] === null || written?.[c] === undefined) continue;
    if (before[c] !== "" && before[c] !== null && before[c] !== written[c]) return true;
  }
  return false;
}
