/**
 * Where Ctrl+arrow goes in Excel: along a row or a column, from a filled cell whose neighbour is
 * filled, to the last filled cell of that run (the data region's edge); otherwise to the next
 * filled cell; with none before the sheet's edge, to the sheet's edge (row 1,048,576, column XFD,
 * row 1, column A).
 */
import { LAST_COLUMN, LAST_ROW } from "./a1.js";
import type { MockWorkbook } from "./mockWorkbook.js";

/** A direction of Ctrl+arrow. */
export type Direction = "up" | "down" | "left" | "right";

/**
 * The index Ctrl+arrow reaches along one line of cells.
 *
 * ## Example
 * ```ts
 * dataRegionEdge(new Set([1, 2, 3]), 1, 1, 1_048_575); // 3: the run's last filled cell
 * dataRegionEdge(new Set([1, 2, 3]), 3, 1, 1_048_575); // 1_048_575: nothing below
 * ```
 *
 * @param filled The filled indexes of the line (rows of a column, or columns of a row).
 * @param from Where the active cell is.
 * @param step 1 (down, right) or -1 (up, left).
 * @param last The line's last index.
 * @return Where the active cell goes.
 */
export function dataRegionEdge(
  filled: ReadonlySet<number>,
  from: number,
  step: 1 | -1,
  last: number
): number {
  const inside = (index: number) => index >= 0 && index <= last;
  if (!inside(from + step)) return from;
  if (filled.has(from) && filled.has(from + step)) {
    let at = from + step;
    while (inside(at + step) && filled.has(at + step)) at += step;
    return at;
  }
  // The next filled cell: the nearest of the filled indexes beyond `from`, else the edge.
  let next = step > 0 ? last : 0;
  for (const index of filled) {
    if (step > 0 ? index > from && index < next : index < from && index > next) next = index;
  }
  return next;
}

/**
 * The cell Ctrl+arrow reaches from the model's cell (row, column) of `sheet`, on the model's data
 * (a cell with a value or a formula is filled).
 *
 * ## Example
 * ```ts
 * ctrlArrowTarget(workbook, "Reviews", { row: 1, column: 0 }, "down"); // { row: 36, column: 0 }
 * ```
 */
export function ctrlArrowTarget(
  workbook: MockWorkbook,
  sheet: string,
  from: { row: number; column: number },
  direction: Direction
): { row: number; column: number } {
  const vertical = direction === "up" || direction === "down";
  const step = direction === "down" || direction === "right" ? 1 : -1;
  const filled = new Set<number>();
  workbook.forEachCell((name, row, column, cell) => {
    if (name !== sheet || (cell.value === "" && cell.formula === undefined)) return;
    if (vertical && column === from.column) filled.add(row);
    if (!vertical && row === from.row) filled.add(column);
  });
  return vertical
    ? { row: dataRegionEdge(filled, from.row, step, LAST_ROW), column: from.column }
    : { row: from.row, column: dataRegionEdge(filled, from.column, step, LAST_COLUMN) };
}

/**
 * Where Ctrl+End goes: the last row and the last column that hold data (one cell, which may be
 * empty itself), A1 on an empty sheet.
 */
export function lastUsedCell(
  workbook: MockWorkbook,
  sheet: string
): { row: number; column: number } {
  const used = workbook.usedBlock(sheet);
  return used
    ? { row: used.top + used.rowCount - 1, column: used.left + used.columnCount - 1 }
    : { row: 0, column: 0 };
}
