/**
 * Where a double-click on the fill handle fills down to, by Excel's rule (Microsoft, "Fill data
 * automatically in worksheet cells": a double-click on the fill handle fills down as far as the
 * data of the adjacent column goes). The adjacent column is the one to the left of the selection,
 * or the one to its right when the left one has no data below the selection; the fill goes down
 * as far as that column's cells are filled without a gap, and stops before a filled cell of the
 * columns being filled (nothing is written over).
 */
import type { CellBlock } from "./a1.js";
import { LAST_COLUMN, LAST_ROW } from "./a1.js";
import type { MockWorkbook } from "./mockWorkbook.js";

/**
 * The last row (0-based) a double-click on `selection`'s fill handle fills to, or `undefined`
 * when it fills nothing (no adjacent data below the selection, or a filled cell right below it).
 *
 * ## Example
 * ```ts
 * // A1:A37 filled, a formula in B2: B2's fill handle fills B3:B37.
 * fillDownEnd(workbook, "Sheet1", { top: 1, left: 1, rowCount: 1, columnCount: 1 }); // 36
 * ```
 */
export function fillDownEnd(
  workbook: MockWorkbook,
  sheet: string,
  selection: CellBlock
): number | undefined {
  const filled = filledCells(workbook, sheet);
  const bottom = selection.top + selection.rowCount - 1;
  const right = selection.left + selection.columnCount - 1;
  const runEnd = (column: number): number | undefined => {
    if (column < 0 || column > LAST_COLUMN || !filled.has(key(bottom + 1, column))) return;
    let row = bottom + 1;
    while (row < LAST_ROW && filled.has(key(row + 1, column))) row++;
    return row;
  };
  let end = runEnd(selection.left - 1) ?? runEnd(right + 1);
  if (end === undefined) return undefined;
  // A filled cell in the columns being filled stops the fill before it.
  for (let row = bottom + 1; row <= end; row++) {
    for (let column = selection.left; column <= right; column++) {
      if (filled.has(key(row, column))) end = Math.min(end, row - 1);
    }
  }
  return end > bottom ? end : undefined;
}

const key = (row: number, column: number) => `${row}:${column}`;

function filledCells(workbook: MockWorkbook, sheet: string): Set<string> {
  const filled = new Set<string>();
  workbook.forEachCell((name, row, column, cell) => {
    if (name === sheet && (cell.value !== "" || cell.formula !== undefined)) {
      filled.add(key(row, column));
    }
  });
  return filled;
}
