/**
 * Excel's Ctrl+Enter over several selected cells (Microsoft, "Keyboard shortcuts in Excel":
 * "Ctrl+Enter: Fill the selected cell range with the current entry"): every cell of the selection
 * takes the entry, a formula's relative references moved from the active cell to each cell as a
 * fill moves them (`=A2*2` entered in F2 with F2:F4 selected: `=A3*2` in F3, `=A4*2` in F4). The
 * cells are written as one edit (one Ctrl+Z takes them all back) and in one write per column, as
 * a fill-down: a SPELL.RUN so entered runs once per row with that row's inputs, the spending guard
 * counting them all.
 */
import { shiftReferences } from "../formulas/shiftReferences.js";
import { MOST_PASTED_CELLS } from "./gridClipboard.js";
import { selectionBlock, type ModelSelection } from "./gridSelection.js";

/** What the fill needs of the grid. */
export interface SelectionFillGrid {
  /** The sheet shown. */
  activeSheet(): string;
  /** The model's selection on a sheet. */
  selectionOf(sheet: string): ModelSelection;
  /** Writes cells as typed (`x` the model's column, `y` its row), as one undoable edit. */
  typeCells(sheet: string, cells: readonly { x: number; y: number; value: string }[]): void;
}

/**
 * Whether Ctrl+Enter fills the selection: it holds more than one cell, and no more than a paste
 * fills (two whole columns; a larger one, Ctrl+A's whole sheet, takes the entry in its active
 * cell only, rather than stopping the page).
 *
 * @example
 * ```ts
 * if (fillsSelection(grid)) fillSelection(grid, "=A2*2");
 * ```
 */
export function fillsSelection(grid: SelectionFillGrid): boolean {
  const { rowCount, columnCount } = selectionBlock(grid.selectionOf(grid.activeSheet()));
  const cells = rowCount * columnCount;
  return cells > 1 && cells <= MOST_PASTED_CELLS;
}

/**
 * Fills the selection of the sheet shown with `entry`, as typed in its active cell.
 *
 * @example
 * ```ts
 * fillSelection(grid, "=A2*2"); // F2:F4 selected: =A2*2, =A3*2, =A4*2
 * ```
 * @param grid The grid (its selection stays as it is).
 * @param entry What was typed in the active cell: a formula (`=…`) or a value.
 */
export function fillSelection(grid: SelectionFillGrid, entry: string): void {
  const sheet = grid.activeSheet();
  const selection = grid.selectionOf(sheet);
  const active = selection.active ?? selection.anchor;
  const block = selectionBlock(selection);
  const cells: { x: number; y: number; value: string }[] = [];
  for (let column = block.left; column < block.left + block.columnCount; column++) {
    for (let row = block.top; row < block.top + block.rowCount; row++) {
      const value = entry.startsWith("=")
        ? shiftReferences(entry, row - active.row, column - active.column)
        : entry;
      cells.push({ x: column, y: row, value });
    }
  }
  grid.typeCells(sheet, cells);
}
