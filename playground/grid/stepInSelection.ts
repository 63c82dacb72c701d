/**
 * Excel's Enter and Tab inside a selected range move the active cell within the range, the range
 * staying selected (Microsoft, "Keyboard shortcuts in Excel", moving within a selected range):
 * Enter "from top to bottom within the selected range", Shift+Enter "from bottom to top", Tab
 * "from left to right within the selected range. If cells in a single column are selected, move
 * down", Shift+Tab "from right to left". At the range's edge the active cell goes on at the next
 * column's top (Enter) or the next row's start (Tab), and after the last cell back to the first.
 */
import type { CellBlock } from "../excel/a1.js";

/** The way Enter (down), Shift+Enter (up), Tab (right) or Shift+Tab (left) moves. */
export type SelectionStep = "down" | "up" | "right" | "left";

/**
 * The cell Enter or Tab makes active within a selected range.
 *
 * @example
 * ```ts
 * const range = { top: 2, left: 1, rowCount: 3, columnCount: 2 }; // B3:C5
 * stepInSelection(range, { row: 4, column: 1 }, "down"); // { row: 2, column: 2 }: B5 → C3
 * stepInSelection(range, { row: 4, column: 2 }, "right"); // { row: 2, column: 1 }: C5 → B3
 * ```
 * @param range The selected range (more than one cell).
 * @param active The active cell, within the range.
 * @param step Which key moved it.
 * @returns The next active cell, within the range.
 */
export function stepInSelection(
  range: CellBlock,
  active: { row: number; column: number },
  step: SelectionStep
): { row: number; column: number } {
  const { rowCount, columnCount } = range;
  // Cells numbered in the order the key visits them: down the columns for Enter, along the rows
  // for Tab (a single column is visited downward by both, as Excel's Tab does).
  const byColumns = step === "down" || step === "up" || columnCount === 1;
  const row = active.row - range.top;
  const column = active.column - range.left;
  const index = byColumns ? column * rowCount + row : row * columnCount + column;
  const cells = rowCount * columnCount;
  const next = (index + (step === "down" || step === "right" ? 1 : -1) + cells) % cells;
  return byColumns
    ? { row: range.top + (next % rowCount), column: range.left + Math.floor(next / rowCount) }
    : {
        row: range.top + Math.floor(next / columnCount),
        column: range.left + (next % columnCount),
      };
}
