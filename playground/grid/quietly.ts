/**
 * Changes made to the grid on the model's behalf: the grid's events and history ignore them.
 */
import type { WorksheetInstance } from "jspreadsheet-ce";

type Spreadsheet = { ignoreEvents?: boolean };
type History = { ignoreHistory?: boolean };

/**
 * Runs `change` on `worksheet` with its events and its history off: what the model wrote is not
 * sent back to the model, nor undone by the grid's undo (Excel's undo never undoes a result).
 *
 * @example
 * ```ts
 * quietly(worksheet, () => worksheet.insertRow(200));
 * ```
 */
export function quietly<T>(worksheet: WorksheetInstance, change: () => T): T {
  const spreadsheet = worksheet.parent as unknown as Spreadsheet;
  const history = worksheet as unknown as History;
  const wasIgnoring = spreadsheet.ignoreEvents;
  const wasIgnoringHistory = history.ignoreHistory;
  spreadsheet.ignoreEvents = true;
  history.ignoreHistory = true;
  try {
    return change();
  } finally {
    spreadsheet.ignoreEvents = wasIgnoring;
    history.ignoreHistory = wasIgnoringHistory;
  }
}

/**
 * Adds `count` empty rows at the bottom of `worksheet`, quietly, without putting them in the page:
 * the rows window (RowWindow) puts in the rows near the view. jspreadsheet puts new rows in the
 * page when its last row is there, each after a search of the rows in the page (thousands of rows
 * then cost seconds), so the last row leaves the page first.
 *
 * @example
 * ```ts
 * appendRows(worksheet, 200);
 * ```
 */
export function appendRows(worksheet: WorksheetInstance, count: number): void {
  const rows = (worksheet as unknown as { rows: { element: HTMLElement }[] }).rows;
  rows[rows.length - 1]?.element.remove();
  quietly(worksheet, () => worksheet.insertRow(count));
}
