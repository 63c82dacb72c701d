/**
 * Whether the mouse went down on a column header: jspreadsheet selects the rows it holds when a
 * header is clicked (the grid's block, a few hundred rows), where Excel selects the entire column
 * ("Click the column heading" selects "an entire column", Microsoft, "Select cell contents in
 * Excel"); the selection made then is widened to the sheet's every row.
 */

let pressed = false;

/**
 * Watches the mouse on the grid's column headers until the returned function is called.
 *
 * ## Example
 * ```ts
 * const stop = watchColumnHeaders(gridElement);
 * ```
 */
export function watchColumnHeaders(element: HTMLElement): () => void {
  const down = (event: MouseEvent) => {
    pressed = event.target instanceof Element && !!event.target.closest("thead td[data-x]");
  };
  // After the selection the release may still make (jspreadsheet ends it on mouseup).
  const up = () => setTimeout(() => (pressed = false));
  element.addEventListener("mousedown", down, true);
  window.addEventListener("mouseup", up, true);
  return () => {
    element.removeEventListener("mousedown", down, true);
    window.removeEventListener("mouseup", up, true);
    pressed = false;
  };
}

/**
 * Whether the selection being made comes from a column header.
 *
 * ## Example
 * ```ts
 * if (columnHeaderPressed()) end.row = LAST_ROW;
 * ```
 */
export function columnHeaderPressed(): boolean {
  return pressed;
}
