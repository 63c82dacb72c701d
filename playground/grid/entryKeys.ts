/**
 * Excel's Ctrl+Enter while a cell is edited in the grid: the entry is written and the active
 * cell stays (Microsoft, "Keyboard shortcuts in Excel": Ctrl+Enter "fills the selected cell range
 * with the current entry"; with one cell selected, it stays selected). Ctrl+Shift+Enter stays too.
 * Alt+Enter "starts a new line in the same cell": the entry goes on, a line break in its text.
 * jspreadsheet's Enter writes and moves down; these keys are taken before it.
 */
import { cellField, endCellEdit } from "./cellEditor.js";
import { focusGrid } from "./typedText.js";

/**
 * Listens for Ctrl+Enter (and Ctrl+Shift+Enter) and Alt+Enter on a cell being edited in the grid.
 *
 * @example
 * ```ts
 * const stop = listenToEntryKeys();
 * ```
 * @returns A function that stops listening.
 */
export function listenToEntryKeys(): () => void {
  const keyDown = (event: KeyboardEvent) => {
    const control = event.ctrlKey || event.metaKey;
    if (event.key !== "Enter" || control === event.altKey) return;
    const field = cellField();
    if (!field || event.target !== field || event.isComposing) return;
    event.preventDefault();
    event.stopPropagation();
    if (event.altKey) {
      lineBreak(field);
      return;
    }
    endCellEdit(true);
    focusGrid(); // the editor left the page with the keyboard
  };
  window.addEventListener("keydown", keyDown, true);
  return () => window.removeEventListener("keydown", keyDown, true);
}

/**
 * Puts a line break at the caret of a cell's editor: a one-line field (jspreadsheet's input, which
 * drops line breaks) is first changed for a text area holding the same text, caret and handlers.
 */
function lineBreak(field: HTMLInputElement | HTMLTextAreaElement): void {
  let area: HTMLTextAreaElement;
  if (field instanceof HTMLTextAreaElement) area = field;
  else {
    area = document.createElement("textarea");
    area.value = field.value;
    area.className = field.className;
    area.style.cssText = field.style.cssText;
    area.onblur = field.onblur;
    field.onblur = null; // leaving the page is no end of the edit
    const caret = { start: field.selectionStart, end: field.selectionEnd };
    field.replaceWith(area);
    area.focus({ preventScroll: true });
    area.setSelectionRange(caret.start ?? area.value.length, caret.end ?? area.value.length);
  }
  area.setRangeText("\n", area.selectionStart, area.selectionEnd, "end");
  // The formula bar mirrors the editor on its input events.
  area.dispatchEvent(new Event("input", { bubbles: true }));
}
