/**
 * Excel's Ctrl+Enter while a cell is edited in the grid: the entry is written and the active
 * cell stays (Microsoft, "Keyboard shortcuts in Excel": Ctrl+Enter "fills the selected cell range
 * with the current entry": with several cells selected, each takes it, `selectionFill.ts`).
 * Ctrl+Shift+Enter writes the active cell and stays too.
 * Alt+Enter "starts a new line in the same cell": the entry goes on, a line break in its text.
 * jspreadsheet's Enter writes and moves down; these keys are taken before it.
 */
import { cellField, endCellEdit } from "./cellEditor.js";
import { fillSelection, fillsSelection, type SelectionFillGrid } from "./selectionFill.js";
import { focusGrid } from "./typedText.js";

/**
 * Listens for Ctrl+Enter (and Ctrl+Shift+Enter) and Alt+Enter on a cell being edited in the grid.
 *
 * @example
 * ```ts
 * const stop = listenToEntryKeys(grid);
 * ```
 * @param grid The grid whose selection Ctrl+Enter fills.
 * @returns A function that stops listening.
 */
export function listenToEntryKeys(grid: SelectionFillGrid): () => void {
  const keyDown = (event: KeyboardEvent) => {
    const control = event.ctrlKey || event.metaKey;
    if (event.key !== "Enter" || control === event.altKey) return;
    const field = cellField();
    if (!field || event.target !== field || event.isComposing) return;
    event.preventDefault();
    event.stopPropagation();
    if (event.altKey) {
      insertLineBreak(field);
      return;
    }
    endEntry(grid, field.value, !event.shiftKey);
    focusGrid(); // the editor left the page with the keyboard
  };
  window.addEventListener("keydown", keyDown, true);
  return () => window.removeEventListener("keydown", keyDown, true);
}

/**
 * Ends the edit of the active cell and keeps it active (Ctrl+Enter, Ctrl+Shift+Enter): `entry` is
 * written into it, or into every selected cell when `fill` (Ctrl+Enter) and several are selected.
 *
 * @example
 * ```ts
 * endEntry(grid, field.value, true);
 * ```
 */
export function endEntry(grid: SelectionFillGrid, entry: string, fill: boolean): void {
  if (!fill || !fillsSelection(grid)) {
    endCellEdit(true, entry);
    return;
  }
  endCellEdit(false); // the fill writes every cell, this one too, as one edit
  fillSelection(grid, entry);
}

/**
 * Puts a line break at the caret of a cell's editor or of the formula bar (both text areas: a
 * one-line field would drop the line breaks), and tells their listeners, as typing does (the bar
 * and the cell mirror each other on their input events).
 *
 * @example
 * ```ts
 * insertLineBreak(field); // "first|" becomes "first\n|"
 * ```
 */
export function insertLineBreak(field: HTMLInputElement | HTMLTextAreaElement): void {
  if (!(field instanceof HTMLTextAreaElement)) return;
  field.setRangeText("\n", field.selectionStart, field.selectionEnd, "end");
  field.dispatchEvent(new Event("input", { bubbles: true }));
}
