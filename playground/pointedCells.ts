/**
 * The border around the cells pointed at while a formula is typed, as Excel draws one around a
 * reference put in by Point mode, so that a drag shows the range it makes (the grid's own
 * selection stays on the cell edited).
 */
import type { CellPosition } from "./excel/referenceAtCaret.js";
import { parseAddress } from "./excel/a1.js";

const POINTED = "point-mode-pointed";

/**
 * Draws the pointed border around the cells from `anchor` to `far` (in any order) of the sheet
 * shown, and takes it off any other cell.
 *
 * @example
 * ```ts
 * markPointedCells({ row: 1, column: 0 }, { row: 9, column: 0 }); // A2:A10
 * ```
 * @param anchor Where the pointing started.
 * @param far Where it is now.
 */
export function markPointedCells(anchor: CellPosition, far: CellPosition): void {
  const top = Math.min(anchor.row, far.row);
  const bottom = Math.max(anchor.row, far.row);
  const left = Math.min(anchor.column, far.column);
  const right = Math.max(anchor.column, far.column);
  for (const cell of document.querySelectorAll<HTMLElement>(".jss_worksheet td[data-cell]")) {
    let inside = false;
    try {
      const { block } = parseAddress(cell.dataset.cell ?? "");
      inside =
        cell.offsetParent !== null &&
        block.top >= top &&
        block.top <= bottom &&
        block.left >= left &&
        block.left <= right;
    } catch {
      inside = false;
    }
    cell.classList.toggle(POINTED, inside);
  }
}

/**
 * Takes the pointed border off every cell (the edit ended, or typing moved on).
 *
 * @example
 * ```ts
 * clearPointedCells();
 * ```
 */
export function clearPointedCells(): void {
  for (const cell of document.querySelectorAll(`.${POINTED}`)) cell.classList.remove(POINTED);
}
