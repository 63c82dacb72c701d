/**
 * Excel's current region: "a range bounded by any combination of blank rows and blank columns"
 * around the active cell (Microsoft, Range.CurrentRegion), which Ctrl+A selects first.
 */
import type { CellBlock } from "./a1.js";
import type { MockWorkbook } from "./mockWorkbook.js";

/**
 * The current region around a cell: the block grown from the cell while any cell just outside it
 * (its corners' neighbours too) is filled; undefined when the cell and its neighbours are empty.
 *
 * @example
 * ```ts
 * // Data in A1:B37, the active cell B5:
 * currentRegion(workbook, "Reviews", { row: 4, column: 1 }); // A1:B37
 * ```
 * @param workbook The model.
 * @param sheet The sheet's name.
 * @param cell The active cell.
 * @returns The region's block, or undefined for a cell with no data around it.
 */
export function currentRegion(
  workbook: MockWorkbook,
  sheet: string,
  cell: { row: number; column: number }
): CellBlock | undefined {
  const filled = new Set<string>();
  workbook.forEachCell((name, row, column, value) => {
    if (name === sheet && (value.value !== "" || value.formula !== undefined)) {
      filled.add(`${row},${column}`);
    }
  });
  const has = (row: number, column: number) => filled.has(`${row},${column}`);
  let top = cell.row;
  let bottom = cell.row;
  let left = cell.column;
  let right = cell.column;
  const anyInRow = (row: number) => {
    for (let column = left - 1; column <= right + 1; column++) if (has(row, column)) return true;
    return false;
  };
  const anyInColumn = (column: number) => {
    for (let row = top - 1; row <= bottom + 1; row++) if (has(row, column)) return true;
    return false;
  };
  let grown = true;
  while (grown) {
    const before = [top, bottom, left, right].join();
    if (top > 0 && anyInRow(top - 1)) top--;
    if (anyInRow(bottom + 1)) bottom++;
    if (left > 0 && anyInColumn(left - 1)) left--;
    if (anyInColumn(right + 1)) right++;
    grown = [top, bottom, left, right].join() !== before;
  }
  const alone = top === bottom && left === right && !has(top, left);
  return alone
    ? undefined
    : { top, left, rowCount: bottom - top + 1, columnCount: right - left + 1 };
}
