/**
 * A sheet made with the "+" tab: jspreadsheet builds it small and with its own columns; it is
 * made like the others (as many rows and columns, cells that show the model's).
 */
import type { WorksheetInstance } from "jspreadsheet-ce";
import { appendRows, quietly } from "./quietly.js";
import { BLOCK_ROWS } from "./sheetBlock.js";

/** Columns of the block of a sheet made with the "+" tab (enough to cover a wide view). */
const NEW_SHEET_COLUMNS = 16;

/**
 * Makes a worksheet built by the "+" tab hold a block like the others' and show the model's
 * cells.
 *
 * @example
 * ```ts
 * fitAddedSheet(worksheet, () => columnOf("Sheet3", 120), (cell, x, y) => render(cell, x, y));
 * ```
 * @param worksheet The new worksheet.
 * @param columnOptions The options of a grid column of the sheet (its cells show the model's).
 * @param render Shows the model's cell in the grid's cell (x, y).
 */
export function fitAddedSheet(
  worksheet: WorksheetInstance,
  columnOptions: () => object,
  render: (cell: HTMLElement | null, x: number, y: number) => void
): void {
  const options = worksheet.options as {
    allowManualInsertRow?: boolean;
    allowManualInsertColumn?: boolean;
  };
  options.allowManualInsertRow = false;
  options.allowManualInsertColumn = false;
  const columns = (worksheet.options.columns ??= []);
  const data = worksheet.getData(false, false) as unknown[][];
  const count = data[0]?.length ?? 0;
  for (let column = 0; column < count; column++) {
    columns[column] = { ...columns[column], ...columnOptions() };
  }
  // jspreadsheet makes it small: it holds as much of the sheet as the others.
  const more = { rows: BLOCK_ROWS - data.length, columns: NEW_SHEET_COLUMNS - count };
  if (more.rows > 0) appendRows(worksheet, more.rows);
  if (more.columns > 0) {
    quietly(worksheet, () => worksheet.insertColumn(more.columns));
    for (let column = count; column < NEW_SHEET_COLUMNS; column++) {
      columns[column] = { ...columns[column], ...columnOptions() };
    }
  }
  // Its cells were built before they had the model's look: they take it now.
  (worksheet.getData(false, false) as unknown[][]).forEach((row, y) =>
    row.forEach((_, x) => render(worksheet.getCellFromCoords(x, y), x, y))
  );
}
