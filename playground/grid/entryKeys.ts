/**
 * Excel's Ctrl+Enter while a cell is edited in the grid: the entry is written and the active
 * cell stays (Microsoft, "Keyboard shortcuts in Excel": Ctrl+Enter "fills the selected cell range
 * with the current entry"; with one cell selected, it stays selected). Ctrl+Shift+Enter stays too.
 * jspreadsheet's Enter writes and moves down; these keys are taken before it.
 */
import { cellField, endCellEdit } from "./cellEditor.js";
import { focusGrid } from "./typedText.js";

/**
 * Listens for Ctrl+Enter (and Ctrl+Shift+Enter) on a cell being edited in the grid.
 *
 * @example
 * ```ts
 * const stop = listenToEntryKeys();
 * ```
 * @returns A function that stops listening.
 */
export function listenToEntryKeys(): () => void {
  const keyDown = (event: KeyboardEvent) => {
    if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.altKey) return;
    const field = cellField();
    if (!field || event.target !== field || event.isComposing) return;
    event.preventDefault();
    event.stopPropagation();
    endCellEdit(true);
    focusGrid(); // the editor left the page with the keyboard
  };
  window.addEventListener("keydown", keyDown, true);
  return () => window.removeEventListener("keydown", keyDown, true);
}
