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
