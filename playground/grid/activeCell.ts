/**
 * The active cell of a selected range, kept beside jspreadsheet's selection rather than in it.
 *
 * Excel's Enter and Tab move the active cell within a selected range, the range staying selected
 * (stepInSelection). jspreadsheet has no such cell: its selection is two corners, the first one
 * the cell it edits. Its corners stay the range's (a fill-handle double-click, the menu's "Delete
 * Sheet Rows", Shift+arrows and copy act on the whole range) and the active cell is kept here:
 * typing, F2 and Backspace edit it, and it has the active cell's white look.
 */
import type { WorksheetInstance } from "jspreadsheet-ce";

/** What this needs of a jspreadsheet worksheet (not in its public types). */
interface ActiveParts {
  selectedCell?: (number | string)[] | null;
  records?: { element: HTMLElement }[][];
}

/** Grid coordinates (x: column, y: row of the block) of each worksheet's moved active cell. */
const movedActiveCells = new WeakMap<object, { x: number; y: number }>();

/**
 * Makes the block's cell (x, y) the active cell of the range the worksheet shows selected, or
 * gives that role back to the range's first corner (`undefined`).
 *
 * @example
 * ```ts
 * worksheet.updateSelectionFromCoords(1, 2, 2, 4); // B3:C5
 * markActiveCell(worksheet, { x: 1, y: 3 }); // B4 is active, B3:C5 stays selected
 * ```
 */
export function markActiveCell(
  worksheet: WorksheetInstance,
  cell: { x: number; y: number } | undefined
): void {
  const parts = worksheet as unknown as ActiveParts;
  const corner = cornerElement(parts);
  const before = activeCellElement(worksheet);
  if (cell) movedActiveCells.set(worksheet, cell);
  else movedActiveCells.delete(worksheet);
  const after = activeCellElement(worksheet);
  // jspreadsheet's white look of its first corner, on the active cell only.
  for (const element of [corner, before]) {
    if (element !== after) element?.classList.remove("highlight-selected");
  }
  after?.classList.add("highlight-selected");
}

/**
 * The active cell's element: the one Enter or Tab moved to within the range, else the first
 * corner of jspreadsheet's selection; undefined when nothing is selected.
 *
 * @example
 * ```ts
 * worksheet.openEditor(activeCellElement(worksheet)!, false); // F2
 * ```
 */
export function activeCellElement(worksheet: WorksheetInstance): HTMLElement | undefined {
  const parts = worksheet as unknown as ActiveParts;
  if (!parts.selectedCell) return undefined;
  const moved = movedActiveCells.get(worksheet);
  return moved ? parts.records?.[moved.y]?.[moved.x]?.element : cornerElement(parts);
}

/** The element of the first corner of jspreadsheet's selection. */
function cornerElement(parts: ActiveParts): HTMLElement | undefined {
  const [x, y] = (parts.selectedCell ?? []).map(Number);
  return parts.records?.[y]?.[x]?.element;
}
