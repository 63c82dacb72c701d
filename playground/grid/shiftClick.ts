/**
 * Shift+Click extends the selection from its anchor to the clicked cell, as in Excel ("select the
 * first cell, and then hold down Shift while you select the last cell in the range"), on the
 * model's selection: jspreadsheet extended from its own first corner, which is gone once the
 * view has moved the grid's block away from the anchor (a scroll far down).
 */
import type { GridWorkbook } from "./gridWorkbook.js";

/**
 * Answers a Shift+mousedown on a cell of the shown sheet.
 *
 * @example
 * ```ts
 * window.addEventListener("mousedown", (event) => shiftClickExtends(event, grid), true);
 * ```
 * @returns Whether the press was this (and handled).
 */
export function shiftClickExtends(event: MouseEvent, grid: GridWorkbook): boolean {
  if (!event.shiftKey || event.button !== 0 || event.ctrlKey || event.metaKey) return false;
  const target = event.target instanceof Element ? event.target : null;
  const cell = target?.closest<HTMLElement>(".jss_worksheet td[data-x][data-y]");
  if (!cell || cell.classList.contains("editor")) return false;
  const sheet = grid.activeSheet();
  const block = grid.blockOf(sheet);
  const end = {
    row: block.row + Number(cell.dataset.y),
    column: block.column + Number(cell.dataset.x),
  };
  if (!Number.isInteger(end.row) || !Number.isInteger(end.column)) return false;
  event.preventDefault();
  event.stopPropagation(); // jspreadsheet's own would extend from the block's corner
  grid.select(sheet, { anchor: grid.selectionOf(sheet).anchor, end });
  return true;
}
