/**
 * A cell's editor shows every line of a text with line breaks, as Excel's in-cell editor does
 * (Microsoft, "Start a new line of text inside a cell in Excel": Alt+Enter breaks the line where
 * the insertion point is): the editor, a text area one line tall, grows downward over the cells
 * below (up to ten lines, then it scrolls), and the row keeps its height (the grid's row window
 * counts on one height for every row).
 */

/** Lines shown at most before the editor scrolls. */
const MOST_LINES = 10;

/** The height of a line of the editor and its top and bottom padding (playground.css). */
const LINE_HEIGHT = 16;
const PADDING = 6;

/**
 * Fits a cell's editor to its lines: one line, the cell's own height; more, taller over the cells
 * below.
 *
 * @example
 * ```ts
 * field.value = "first\nsecond";
 * fitEditorToLines(field); // two lines tall
 * ```
 */
export function fitEditorToLines(field: HTMLInputElement | HTMLTextAreaElement): void {
  if (!(field instanceof HTMLTextAreaElement) || !field.closest("td.editor")) return;
  // jspreadsheet gives the editor the cell's height when it opens it.
  field.dataset.oneLineHeight ??= field.style.height;
  const lines = Math.min(MOST_LINES, field.value.split("\n").length);
  const grown = lines > 1;
  field.classList.toggle("editor-lines", grown);
  field.style.height = grown
    ? `${lines * LINE_HEIGHT + PADDING}px`
    : (field.dataset.oneLineHeight ?? "");
}

/**
 * Fits every cell editor to its lines as it opens and as it is typed in.
 *
 * @example
 * ```ts
 * const stop = listenToEditorLines();
 * ```
 * @returns A function that stops listening.
 */
export function listenToEditorLines(): () => void {
  const fit = (event: Event) => {
    const field = event.target;
    if (!(field instanceof HTMLTextAreaElement)) return;
    // jspreadsheet focuses its editor before it puts the cell's text in: fitted right after.
    queueMicrotask(() => fitEditorToLines(field));
  };
  document.addEventListener("focusin", fit, true);
  document.addEventListener("input", fit, true);
  return () => {
    document.removeEventListener("focusin", fit, true);
    document.removeEventListener("input", fit, true);
  };
}
