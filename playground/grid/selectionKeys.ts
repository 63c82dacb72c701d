/**
 * Excel's keys that select whole parts of the sheet (Microsoft, "Keyboard shortcuts in Excel"):
 * Ctrl+Space "select an entire column", Shift+Space "select an entire row" (those of the
 * selection), and Ctrl+A "select the current region if the worksheet contains data. Press Ctrl+A
 * a second time to select the current region and its summary rows. Press Ctrl+A a third time to
 * select the entire worksheet" (no summary rows here: the second press selects the sheet). The
 * active cell stays where it is.
 */
import { currentRegion } from "../excel/currentRegion.js";
import { LAST_COLUMN, LAST_ROW } from "../excel/a1.js";
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import { selectionBlock, type ModelSelection } from "./gridSelection.js";
import type { GridWorkbook } from "./gridWorkbook.js";

/**
 * Answers Ctrl+Space, Shift+Space and Ctrl+A on a selected cell (not while a cell is edited).
 *
 * @example
 * ```ts
 * if (selectsPartOfSheet(event, grid, workbook)) return;
 * ```
 * @returns Whether the key was one of these (and handled).
 */
export function selectsPartOfSheet(
  event: KeyboardEvent,
  grid: GridWorkbook,
  workbook: MockWorkbook
): boolean {
  const control = event.ctrlKey || event.metaKey;
  const space = event.key === " " && !event.altKey;
  const selectAll = control && !event.shiftKey && !event.altKey && event.key.toLowerCase() === "a";
  if (!(space && control !== event.shiftKey) && !selectAll) return false;
  event.preventDefault();
  event.stopPropagation();
  const sheet = grid.activeSheet();
  const selection = grid.selectionOf(sheet);
  const active = selection.active ?? selection.anchor;
  const range = selectionBlock(selection);
  const bottom = range.top + range.rowCount - 1;
  const right = range.left + range.columnCount - 1;
  let chosen: ModelSelection;
  if (space && control) {
    chosen = { anchor: { row: 0, column: range.left }, end: { row: LAST_ROW, column: right } };
  } else if (space) {
    chosen = { anchor: { row: range.top, column: 0 }, end: { row: bottom, column: LAST_COLUMN } };
  } else {
    const region = currentRegion(workbook, sheet, active);
    const same =
      region &&
      region.top === range.top &&
      region.left === range.left &&
      region.rowCount === range.rowCount &&
      region.columnCount === range.columnCount;
    chosen =
      region && !same
        ? {
            anchor: { row: region.top, column: region.left },
            end: {
              row: region.top + region.rowCount - 1,
              column: region.left + region.columnCount - 1,
            },
          }
        : { anchor: { row: 0, column: 0 }, end: { row: LAST_ROW, column: LAST_COLUMN } };
  }
  grid.select(sheet, { ...chosen, active });
  return true;
}
