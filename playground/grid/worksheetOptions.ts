/**
 * The jspreadsheet options of a sheet of the grid: its block's size, the model's inputs for the
 * first rendering, and columns whose cells show the model's values.
 */
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import { inputAt } from "./gridEdits.js";

/** No resizing of rows and columns by a drag on a header's border (jspreadsheet's options). */
export const FIXED_SIZES = { columnResize: false, rowResize: false } as const;

/** A column's width when the sheet gives it none (every column of a new sheet). */
export const DEFAULT_COLUMN_WIDTH = 120;

/**
 * One sheet of the grid: its name and the size of the block of it the grid holds (the sheet is
 * Excel's size; the block shows the part of it near the view).
 */
export interface GridSheet {
  name: string;
  columns: number;
  rows: number;
  /** Widths of its first columns (the others: `DEFAULT_COLUMN_WIDTH`). */
  columnWidths?: readonly number[];
}

/**
 * A sheet's worksheet options.
 *
 * @example
 * ```ts
 * jspreadsheet(element, { worksheets: sheets.map((sheet) => worksheetOptions(sheet, workbook, column)) });
 * ```
 * @param sheet The sheet.
 * @param workbook The model (its inputs fill the grid).
 * @param columnOf A grid column's options, of a width (its cells show the model's).
 */
export function worksheetOptions(
  sheet: GridSheet,
  workbook: MockWorkbook,
  columnOf: (width: number) => object
) {
  return {
    worksheetName: sheet.name,
    minDimensions: [sheet.columns, sheet.rows] as [number, number],
    // The model's inputs (formula, else value) for the grid's first rendering.
    data: Array.from({ length: sheet.rows }, (_, row) =>
      Array.from({ length: sheet.columns }, (_, column) =>
        inputAt(workbook, sheet.name, row, column)
      )
    ),
    columns: Array.from({ length: sheet.columns }, (_, column) =>
      columnOf(sheet.columnWidths?.[column] ?? DEFAULT_COLUMN_WIDTH)
    ),
    // Enter and Tab at the block's edge move on in the sheet; they never insert a line.
    allowManualInsertRow: false,
    allowManualInsertColumn: false,
    // Heights and widths are fixed: a width set by hand was lost when the block moved, and a
    // taller row put the rows' spacers off.
    ...FIXED_SIZES,
  };
}
