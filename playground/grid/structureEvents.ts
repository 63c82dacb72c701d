/**
 * The grid's insert and delete of rows and columns, and its sort, done to the model: the model
 * moves its cells as Excel would and adjusts the formulas' references; the grid then shows the
 * model's cells again.
 */
import type { SpreadsheetOptions, WorksheetInstance } from "jspreadsheet-ce";
import { compareForSort } from "../excel/compareForSort.js";
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import { MockOfficeError } from "../excel/MockOfficeError.js";
import { inputAt, sortModelRows } from "./gridEdits.js";
import { quietly } from "./quietly.js";
import type { SheetBlock } from "./sheetBlock.js";

/** What the structure events need of the grid. */
export interface StructureTarget {
  /** The sheet a worksheet shows. */
  sheetOf(instance: WorksheetInstance): string;
  /** The block of a sheet the grid holds. */
  blockOf(sheet: string): SheetBlock;
  /** Rows or columns were inserted or deleted: the headers show the model's numbers again. */
  changed(instance: WorksheetInstance): void;
  /** The model's rows were sorted: the grid shows them again. */
  sorted(): void;
}

/**
 * jspreadsheet's handlers for inserts, deletes and sorts, over the model.
 *
 * @example
 * ```ts
 * jspreadsheet(element, { ...structureEvents(workbook, target), worksheets });
 * ```
 */
export function structureEvents(
  workbook: MockWorkbook,
  target: StructureTarget
): Pick<
  SpreadsheetOptions,
  "oninsertrow" | "ondeleterow" | "oninsertcolumn" | "ondeletecolumn" | "onsort"
> {
  const originOf = (instance: WorksheetInstance) => target.blockOf(target.sheetOf(instance));
  return {
    oninsertrow: (instance, rows) => {
      const first = Math.min(...rows.map((row) => Number(row.row)));
      refusable(
        () =>
          workbook.insertRows(
            target.sheetOf(instance),
            originOf(instance).row + first,
            rows.length
          ),
        () => quietly(instance, () => instance.deleteRow(first, rows.length))
      );
      target.changed(instance);
    },
    ondeleterow: (instance, removed) => {
      const { row } = originOf(instance);
      const rows = [...removed].map(Number).sort((a, b) => b - a);
      for (const y of rows) workbook.deleteRows(target.sheetOf(instance), row + y, 1);
      target.changed(instance);
    },
    oninsertcolumn: (instance, columns) => {
      const first = Math.min(...columns.map((column) => Number(column.column)));
      refusable(
        () =>
          workbook.insertColumns(
            target.sheetOf(instance),
            originOf(instance).column + first,
            columns.length
          ),
        () => quietly(instance, () => instance.deleteColumn(first, columns.length))
      );
      target.changed(instance);
    },
    ondeletecolumn: (instance, removed) => {
      const { column } = originOf(instance);
      const columns = [...removed].map(Number).sort((a, b) => b - a);
      for (const x of columns) workbook.deleteColumns(target.sheetOf(instance), column + x, 1);
      target.changed(instance);
    },
    onsort: (instance, column, order) => {
      // The grid sorted the rows it holds; the sheet's rows are the model's: every row of the
      // sheet is sorted alike (the grid then shows the model's rows again).
      const sheet = target.sheetOf(instance);
      const block = target.blockOf(sheet);
      const rows = Math.max(block.row + block.rowCount(), workbook.lastRow(sheet) + 1);
      const by = block.column + Number(column);
      const sorted = Array.from({ length: rows }, (_, row): [number, string] => [
        row,
        inputAt(workbook, sheet, row, by),
      ]).sort((a, b) => compareForSort(a, b, order ? 1 : 0));
      sortModelRows(
        workbook,
        sheet,
        sorted.map(([row]) => row)
      );
      target.sorted();
    },
  };
}

/**
 * Makes an edit in the model; when the model refuses it as Excel would (an insert that would push
 * nonblank cells off the sheet), the grid's own change is taken back and Excel's message shown.
 */
function refusable(edit: () => void, undoInGrid: () => void): void {
  try {
    edit();
  } catch (error) {
    if (!(error instanceof MockOfficeError)) throw error;
    undoInGrid();
    // After the grid showed the model again (Excel's message box comes over the unchanged sheet).
    setTimeout(() => window.alert(error.message));
  }
}
