/**
 * Excel's PageDown and PageUp: "Move one screen down in a worksheet" and "Move one screen up in a
 * worksheet" (Microsoft's "Keyboard shortcuts in Excel"). The view scrolls by the rows one screen
 * shows, and the active cell moves by as many rows, so it keeps its place on the screen (and it is
 * always in view after the key).
 */

/** A row's height until one is measured (jspreadsheet's default). */
const DEFAULT_ROW_HEIGHT = 24;

/**
 * How many rows one screen of the sheet shows in full: between the column headers (sticky at
 * the view's top, below the bars) and the view's bottom edge (above its scroll bar).
 *
 * @example
 * ```ts
 * rowsPerScreen(worksheet.table, document.querySelector(".playground-sheet")!); // 28
 * ```
 * @param table The shown worksheet's table.
 * @param scroller The element that scrolls the sheet.
 */
export function rowsPerScreen(table: HTMLElement, scroller: HTMLElement): number {
  const height = rowHeight(table);
  const headers = table.querySelector("thead td")?.getBoundingClientRect().bottom;
  const viewTop = Math.max(headers ?? 0, scroller.getBoundingClientRect().top);
  const viewBottom =
    scroller.getBoundingClientRect().top + scroller.clientTop + scroller.clientHeight;
  return Math.max(1, Math.floor((viewBottom - viewTop) / height));
}

/**
 * Scrolls the sheet's view one screen down (`direction` 1) or up (-1), as far as the sheet goes.
 *
 * @example
 * ```ts
 * const rows = turnPage(worksheet.table, scroller, 1); // then the active cell moves `rows` down
 * ```
 * @returns The rows of one screen (the active cell's step, even where the view stopped at the
 *   sheet's top).
 */
export function turnPage(table: HTMLElement, scroller: HTMLElement, direction: 1 | -1): number {
  const rows = rowsPerScreen(table, scroller);
  scroller.scrollTop += direction * rows * rowHeight(table);
  return rows;
}

/** The height of a row of the table in the page. */
function rowHeight(table: HTMLElement): number {
  // Not the spacers that stand for the rows out of the page (RowWindow).
  const row = table.querySelector<HTMLElement>(":scope > tbody:not([aria-hidden]) > tr");
  return row?.getBoundingClientRect().height || DEFAULT_ROW_HEIGHT;
}
