/**
 * The grid's insert and delete of rows and columns, and its sort, done to the model: the model
 * moves its cells as Excel would and adjusts the formulas' references; the grid then shows the
 * model's cells again. Each is one edit of the model's undo history (ModelUndo), as in Excel.
 */
import type { SpreadsheetOptions, WorksheetInstance } from "jspreadsheet-ce";
import { compareForSort } from "../excel/compareForSort.js";
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import { MockOfficeError } from "../excel/MockOfficeError.js";
import { shiftRowReferences } from "../formulas/shiftRowReferences.js";
import { inputAt } from "./gridEdits.js";
import type { ModelUndo } from "./modelUndo.js";
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
  /** The row of the active cell of a sheet (the model's selection). */
  activeRow(sheet: string): number;
  /** The model's rows were sorted: the grid shows them again. */
  sorted(): void;
}

/**
 * jspreadsheet's handlers for inserts, deletes and sorts, over the model.
 *
 * @example
 * ```ts
 * jspreadsheet(element, { ...structureEvents(workbook, history, target), worksheets });
 * ```
 */
export function structureEvents(
  workbook: MockWorkbook,
  history: ModelUndo,
  target: StructureTarget
): Pick<
  SpreadsheetOptions,
  "oninsertrow" | "ondeleterow" | "oninsertcolumn" | "ondeletecolumn" | "onsort"
> {
  const originOf = (instance: WorksheetInstance) => target.blockOf(target.sheetOf(instance));
  return {
    oninsertrow: (instance, rows) => {
      const first = Math.min(...rows.map((row) => Number(row.row)));
      const sheet = target.sheetOf(instance);
      const at = originOf(instance).row + first;
      refusable(
        () => history.structure(sheet, [{ sheet, axis: "row", at, count: rows.length }]),
        () => quietly(instance, () => instance.deleteRow(first, rows.length))
      );
      target.changed(instance);
    },
    ondeleterow: (instance, removed) => {
      const { row } = originOf(instance);
      const sheet = target.sheetOf(instance);
      const rows = [...removed].map(Number).sort((a, b) => b - a);
      history.structure(
        sheet,
        rows.map((y) => ({ sheet, axis: "row", at: row + y, count: -1 }))
      );
      target.changed(instance);
    },
    oninsertcolumn: (instance, columns) => {
      const first = Math.min(...columns.map((column) => Number(column.column)));
      const sheet = target.sheetOf(instance);
      const at = originOf(instance).column + first;
      refusable(
        () => history.structure(sheet, [{ sheet, axis: "column", at, count: columns.length }]),
        () => quietly(instance, () => instance.deleteColumn(first, columns.length))
      );
      target.changed(instance);
    },
    ondeletecolumn: (instance, removed) => {
      const { column } = originOf(instance);
      const sheet = target.sheetOf(instance);
      const columns = [...removed].map(Number).sort((a, b) => b - a);
      history.structure(
        sheet,
        columns.map((x) => ({ sheet, axis: "column", at: column + x, count: -1 }))
      );
      target.changed(instance);
    },
    onsort: (instance, column, direction) => {
      // The grid sorted the rows it holds; the sheet's are the model's: the current region
      // around the active cell (the rows of data next to each other, as Excel's sort takes),
      // its first row kept as the header, is sorted (the grid then shows the model's rows again).
      const sheet = target.sheetOf(instance);
      const block = target.blockOf(sheet);
      const by = block.column + Number(column);
      const { top, bottom } = regionRows(workbook, sheet, target.activeRow(sheet), by);
      const sorted = Array.from(
        { length: Math.max(0, bottom - top) },
        (_, index): [number, string] => [
          top + 1 + index,
          inputAt(workbook, sheet, top + 1 + index, by),
        ]
      ).sort((a, b) => compareForSort(a, b, direction ? 1 : 0));
      // A formula that moved reads its new row, as Excel re-bases relative references in a sort.
      const order = [
        ...Array.from({ length: top + 1 }, (_, row) => row),
        ...sorted.map(([row]) => row),
      ];
      history.structure(sheet, [{ sheet, order, rebase: shiftRowReferences }]);
      // Excel's "Sort A to Z" leaves the column's header as it was; the grid's sort arrow stayed
      // on it after the sort was undone.
      for (const header of (instance as unknown as { headers: HTMLElement[] }).headers) {
        header.classList.remove("arrow-up", "arrow-down");
      }
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

/**
 * The rows of the current region around `row`: the rows next to it (and to each other) that hold
 * something, as Excel's sort finds the data to sort; from an empty row (a header click selects
 * from the block's first row), the region of the first value of column `by` below it.
 */
function regionRows(
  workbook: MockWorkbook,
  sheet: string,
  row: number,
  by: number
): { top: number; bottom: number } {
  const filled = new Set<number>();
  let below = Number.POSITIVE_INFINITY;
  workbook.forEachCell((name, at, column, cell) => {
    if (name !== sheet || (cell.value === "" && cell.formula === undefined)) return;
    filled.add(at);
    if (column === by && at >= row) below = Math.min(below, at);
  });
  if (!filled.has(row) && below !== Number.POSITIVE_INFINITY) row = below;
  let top = row;
  let bottom = row;
  while (top > 0 && filled.has(top - 1)) top--;
  while (filled.has(bottom + 1)) bottom++;
  return { top, bottom };
}
