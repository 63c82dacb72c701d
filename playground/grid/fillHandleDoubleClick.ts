/**
 * A double-click on the fill handle fills down as far as the adjacent column's data goes, as in
 * Excel (fillDownEnd), where jspreadsheet filled to the last row the grid holds (200 rows and
 * more: the column was overfilled far below the data).
 *
 * The fill itself is jspreadsheet's, as when the handle is dragged to that row: the same series,
 * the same moved references, one undoable edit written to the model.
 */
import type { WorksheetInstance } from "jspreadsheet-ce";
import { fillDownEnd } from "../excel/fillDownEnd.js";
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import type { ModelSelection } from "./gridSelection.js";
import { appendRows } from "./quietly.js";
import type { SheetBlock } from "./sheetBlock.js";

/** What the double-click needs of the grid. */
export interface FillGrid {
  activeSheet(): string;
  worksheet(sheet: string): WorksheetInstance;
  blockOf(sheet: string): SheetBlock;
  select(sheet: string, selection: ModelSelection): void;
}

/** jspreadsheet's state of a fill-handle drag (not in its public types). */
interface FillParts {
  selectedCell?: (number | string)[];
  selectedCorner: boolean;
  selection: HTMLElement[];
  records: { element: HTMLElement }[][];
}

/**
 * Makes a double-click on the fill handle of `gridElement` fill down by Excel's rule.
 *
 * @example
 * ```ts
 * fillDownOnDoubleClick(document.getElementById("grid")!, grid, workbook);
 * ```
 * @returns A function that stops.
 */
export function fillDownOnDoubleClick(
  gridElement: HTMLElement,
  grid: FillGrid,
  workbook: MockWorkbook
): () => void {
  const doubleClick = (event: MouseEvent) => {
    if (!(event.target as Element | null)?.closest(".jss_corner")) return;
    // jspreadsheet's own double-click (on the document, after this) fills to its last row.
    event.stopPropagation();
    const sheet = grid.activeSheet();
    const worksheet = grid.worksheet(sheet);
    const parts = worksheet as unknown as FillParts;
    const block = grid.blockOf(sheet);
    const [x1, y1, x2, y2] = (parts.selectedCell ?? []).map(Number);
    if ([x1, y1, x2, y2].some(Number.isNaN)) return;
    const left = Math.min(x1, x2);
    const right = Math.max(x1, x2);
    const top = Math.min(y1, y2);
    const bottom = Math.max(y1, y2);
    const end = fillDownEnd(workbook, sheet, {
      top: block.row + top,
      left: block.column + left,
      rowCount: bottom - top + 1,
      columnCount: right - left + 1,
    });
    if (end === undefined) return;
    const lastRow = end - block.row;
    // The grid holds the block's rows; a fill below them grows it first (as a drag does).
    const missing = lastRow - (parts.records.length - 1);
    if (missing > 0) {
      appendRows(worksheet, missing);
      block.label();
    }
    // jspreadsheet's end of a fill-handle drag: its copy selection is filled when the button is
    // released.
    parts.selectedCorner = true;
    parts.selection = [
      parts.records[bottom + 1][left].element,
      parts.records[lastRow][right].element,
    ];
    document.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
    // Excel leaves the whole filled range selected (the source and the cells filled), its first
    // cell active, as after a drag of the handle; jspreadsheet left only the source selected.
    grid.select(sheet, {
      anchor: { row: block.row + top, column: block.column + left },
      end: { row: end, column: block.column + right },
    });
  };
  gridElement.addEventListener("dblclick", doubleClick, true);
  return () => gridElement.removeEventListener("dblclick", doubleClick, true);
}
