/**
 * The playground's spreadsheet grid (jspreadsheet-ce) bound to the workbook model, so that what a
 * person does in the grid is what the add-in reads through `Excel.run`, and what the add-in or a
 * formula writes is what the grid shows.
 *
 * The model is the one source of truth; the grid is its view and its keyboard and mouse:
 * - a cell typed, pasted or filled (the fill handle) is written into the model as typed input
 *   (`=…` a formula, numeric text a number), which the formula engine then recalculates;
 * - insert and delete of rows and columns, and sort, move the model's cells as Excel would
 *   (a sort keeps row 1 in place: it holds the column names); the model adjusts the formulas'
 *   references and spills again what an edit crossed, the grid then shows the model's cells;
 * - the selection is the model's selection (what `getSelectedRange()` answers);
 * - each cell shows the model's value; the editor shows its formula;
 * - only the rows near the view are in the page (RowWindow), so long sheets scroll smoothly.
 */
import jspreadsheet from "jspreadsheet-ce";
import type { WorksheetInstance } from "jspreadsheet-ce";
import { Observable, Subject } from "rxjs";
import { blockAddress, columnName } from "../../taskpane/sheet/a1Address.js";
import type { DisplayChange } from "../formulas/formulaEngine.js";
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import { compareForSort } from "../excel/compareForSort.js";
import { quoteSheet } from "../excel/mockRanges.js";
import { isErrorValue, showCell } from "./cellLook.js";
import { pastedInputs } from "./gridClipboard.js";
import type { Copied } from "./gridClipboard.js";
import { inputAt, replayIntoModel, sortModelRows, typedIntoModel } from "./gridEdits.js";
import { GridRefresher } from "./gridRefresher.js";
import { appendRows } from "./quietly.js";
import { SheetWindows } from "./sheetWindows.js";

/** One sheet of the grid: its name and its size at start (it grows when the model does). */
export interface GridSheet {
  name: string;
  columns: number;
  rows: number;
  columnWidths?: number[];
}

/**
 * The grid over the model.
 *
 * ## Example
 * ```ts
 * const grid = await GridWorkbook.mount(element, workbook, engine.displayChanges, [
 *   { name: "Reviews", columns: 8, rows: 60 },
 * ]);
 * grid.type("Reviews", "B2", '=SPELL.RUN("summarize", A2)');
 * ```
 */
export class GridWorkbook {
  private readonly worksheets = new Map<string, WorksheetInstance>();
  private readonly refreshed = new Subject<void>();
  private readonly refresher: GridRefresher;
  private windows: SheetWindows | undefined;

  /** Emits after the grid showed the model's latest values. */
  readonly refreshes: Observable<void> = this.refreshed.asObservable();

  private readonly selectedCell = new Subject<{ sheet: string; address: string }>();
  private copied: Copied | undefined;

  /** The active cell (the selection's first cell) whenever a person selects. */
  readonly selections: Observable<{ sheet: string; address: string }> =
    this.selectedCell.asObservable();

  private constructor(
    private readonly workbook: MockWorkbook,
    private readonly sheets: readonly GridSheet[],
    private readonly messageAt: (sheet: string, address: string) => string | undefined
  ) {
    this.refresher = new GridRefresher(
      workbook,
      {
        worksheetOf: (sheet) => this.worksheets.get(sheet),
        sheetNames: () => [...this.worksheets.keys()],
        render: (sheet, cell, column, row) => this.render(sheet, cell, column, row),
      },
      () => {
        this.windows?.sync();
        this.refreshed.next();
      }
    );
  }

  /**
   * Builds the grid in `element` with a tab per sheet and binds it to `workbook`.
   *
   * @param element Where the grid goes.
   * @param workbook The model (its cells fill the grid).
   * @param displayChanges What to show again (the formula engine's changes).
   * @param sheets The sheets, in tab order.
   * @param messageAt Why a cell shows an error (its tooltip), when known.
   */
  static async mount(
    element: HTMLElement,
    workbook: MockWorkbook,
    displayChanges: Observable<DisplayChange>,
    sheets: readonly GridSheet[],
    messageAt: (sheet: string, address: string) => string | undefined = () => undefined
  ): Promise<GridWorkbook> {
    const grid = new GridWorkbook(workbook, sheets, messageAt);
    await grid.build(element);
    displayChanges.subscribe((change) => grid.refresher.queue(change));
    return grid;
  }

  /** The jspreadsheet worksheet of a sheet (for specs and the page: fill, sort, insert…). */
  worksheet(sheet: string): WorksheetInstance {
    const worksheet = this.worksheets.get(sheet);
    if (!worksheet) throw new Error(`No sheet named ${sheet}`);
    return worksheet;
  }

  /** Types into a cell as a person would (through the grid, so its events run). */
  type(sheet: string, address: string, text: string): void {
    const { x, y } = coordinates(address);
    this.worksheet(sheet).setValueFromCoords(x, y, text, true);
  }

  /** What the cell shows (the model's value, as the grid renders it). */
  shown(sheet: string, address: string): string {
    const { x, y } = coordinates(address);
    return this.worksheet(sheet).getCellFromCoords(x, y)?.textContent ?? "";
  }

  private build(element: HTMLElement): Promise<void> {
    return new Promise<void>((resolve) => {
      jspreadsheet(element as HTMLDivElement, {
        tabs: true,
        parseFormulas: false, // formulas are the formula engine's, over the model
        onload: () => resolve(),
        sorting: (order) => (a, b) => compareForSort(a, b, order),
        onafterchanges: (instance, changes) =>
          typedIntoModel(this.workbook, this.nameOf(instance), changes),
        // Coordinates come as text after some selections (a click on a row header): numbers.
        onselection: (instance, x1, y1, x2, y2) =>
          this.selected(instance, Number(x1), Number(y1), Number(x2), Number(y2)),
        oninsertrow: (instance, rows) => {
          const at = Math.min(...rows.map((row) => row.row));
          this.workbook.insertRows(this.nameOf(instance), at, rows.length);
          this.windows?.sync(true);
        },
        ondeleterow: (instance, removed) => {
          const rows = [...removed].map(Number).sort((a, b) => b - a);
          for (const row of rows) this.workbook.deleteRows(this.nameOf(instance), row, 1);
          this.windows?.sync(true);
        },
        oninsertcolumn: (instance, columns) => {
          const at = Math.min(...columns.map((column) => column.column));
          this.workbook.insertColumns(this.nameOf(instance), at, columns.length);
        },
        ondeletecolumn: (instance, removed) => {
          const columns = [...removed].map(Number).sort((a, b) => b - a);
          for (const column of columns)
            this.workbook.deleteColumns(this.nameOf(instance), column, 1);
        },
        onsort: (instance, _column, _order, newOrder) => {
          sortModelRows(this.workbook, this.nameOf(instance), newOrder);
          this.windows?.sync(true);
        },
        // The grid's own undo and redo go through the model, so the sheet and SPELL agree.
        onundo: (instance, record) =>
          replayIntoModel(this.workbook, this.nameOf(instance), record, "oldValue"),
        onredo: (instance, record) =>
          replayIntoModel(this.workbook, this.nameOf(instance), record, "value"),
        oncopy: (instance, range) => this.remember(instance, range),
        onbeforepaste: (instance, pasted, x, y) =>
          this.pasting(instance, pasted, Number(x), Number(y)) as unknown as string | undefined,
        // The "+" tab: a real sheet of the model, whose formulas evaluate.
        oncreateworksheet: (worksheet) => this.added(worksheet),
        worksheets: this.sheets.map((sheet) => ({
          worksheetName: sheet.name,
          minDimensions: [sheet.columns, sheet.rows] as [number, number],
          data: this.inputsOf(sheet),
          columns: Array.from({ length: sheet.columns }, (_, column) =>
            this.columnOf(sheet.name, sheet.columnWidths?.[column] ?? 120)
          ),
        })),
      });
    }).then(() => {
      const spreadsheet = (
        jspreadsheet as unknown as { spreadsheet: { worksheets: WorksheetInstance[] }[] }
      ).spreadsheet;
      const built = spreadsheet[spreadsheet.length - 1].worksheets;
      this.sheets.forEach((sheet, index) => this.worksheets.set(sheet.name, built[index]));
      const windows = (this.windows = new SheetWindows(element));
      this.worksheets.forEach((worksheet, sheet) => windows.add(sheet, worksheet));
      // The formula bar follows the sheet chosen, as Excel's shows that sheet's active cell.
      element.querySelector(".jtabs-headers")?.addEventListener("click", () =>
        setTimeout(() => {
          this.windows?.sync(true);
          this.tabChosen();
        })
      );
    });
  }

  /** A column of the grid: its cells show the model's values. */
  private columnOf(sheet: string, width: number) {
    return {
      width,
      align: "left" as const,
      render: (cell: HTMLTableCellElement | null, _value: unknown, x: number, y: number) =>
        this.render(sheet, cell, Number(x), Number(y)),
    };
  }

  /** The sheet shown now (the active tab). */
  activeSheet(): string {
    for (const [name, worksheet] of this.worksheets) {
      if ((worksheet.element as HTMLElement).offsetParent !== null) return name;
    }
    return this.sheets[0].name;
  }

  /** Tells the formula bar which cell is active after a tab was chosen. */
  private tabChosen(): void {
    const sheet = this.activeSheet();
    const selected = (this.worksheets.get(sheet) as unknown as { selectedCell?: number[] })
      .selectedCell;
    // jspreadsheet keeps the coordinates as text after some selections ("1054"): as numbers.
    const address = selected
      ? `${columnName(Number(selected[0]))}${Number(selected[1]) + 1}`
      : "A1";
    this.selectedCell.next({ sheet, address });
  }

  /** A sheet made with the "+" tab: the model gets it, and its cells show the model's values. */
  private added(worksheet: WorksheetInstance): void {
    const name = String(worksheet.options.worksheetName);
    if (!this.workbook.sheetNames().includes(name)) this.workbook.addSheet(name);
    this.worksheets.set(name, worksheet);
    this.windows?.add(name, worksheet);
    const columns = (worksheet.options.columns ??= []);
    const count = (worksheet.getData(false, false) as unknown[][])[0]?.length ?? 0;
    for (let column = 0; column < count; column++) {
      columns[column] = { ...columns[column], ...this.columnOf(name, 120) };
    }
    // The new sheet is shown: the formula bar shows its cell, not the last sheet's.
    setTimeout(() => this.tabChosen());
  }

  /** A copy in the grid: its cells' inputs, so a paste brings formulas, not values. */
  private remember(
    instance: WorksheetInstance,
    range: [number, number, number, number]
  ): undefined {
    const sheet = this.nameOf(instance);
    const [left, top, right, bottom] = range;
    const rows = Array.from({ length: bottom - top + 1 }, (_, r) => top + r);
    const columns = Array.from({ length: right - left + 1 }, (_, c) => left + c);
    this.copied = {
      sheet,
      left,
      top,
      inputs: rows.map((row) => columns.map((column) => this.inputAt(sheet, row, column))),
      shown: rows.map((row) =>
        columns.map((column) => instance.getCellFromCoords(column, row)?.innerHTML ?? "")
      ),
    };
    return undefined;
  }

  /**
   * A paste of what was copied in the grid: the copied formulas, their relative references
   * moved by the distance from the copy to the paste, as Excel pastes formulas.
   */
  private pasting(
    _instance: WorksheetInstance,
    pasted: { value: unknown }[][],
    x: number,
    y: number
  ): string[][] | undefined {
    return pastedInputs(this.copied, pasted, x, y);
  }

  /** The model's inputs (formula, else value) for the grid's first rendering. */
  private inputsOf(sheet: GridSheet): string[][] {
    return Array.from({ length: sheet.rows }, (_, row) =>
      Array.from({ length: sheet.columns }, (_, column) => this.inputAt(sheet.name, row, column))
    );
  }

  private inputAt(sheet: string, row: number, column: number): string {
    return inputAt(this.workbook, sheet, row, column);
  }

  private selected(
    instance: WorksheetInstance,
    x1: number,
    y1: number,
    x2: number,
    y2: number
  ): void {
    const block = {
      top: Math.min(y1, y2),
      left: Math.min(x1, x2),
      rowCount: Math.abs(y2 - y1) + 1,
      columnCount: Math.abs(x2 - x1) + 1,
    };
    this.workbook.select(`${quoteSheet(this.nameOf(instance))}!${blockAddress(block)}`);
    this.selectedCell.next({ sheet: this.nameOf(instance), address: `${columnName(x1)}${y1 + 1}` });
    // A jump from the keyboard (Ctrl+Down, Ctrl+End…) to a row out of view: the view follows.
    this.windows?.reveal(this.nameOf(instance), y2);
  }

  private render(sheet: string, cell: HTMLElement | null, x: number, y: number): void {
    if (!cell) return;
    const address = `${columnName(x)}${y + 1}`;
    const shown = this.workbook.cell(sheet, address);
    // Why it shows an error (its tooltip): asked only of errors.
    const message = isErrorValue(String(shown.value)) ? this.messageAt(sheet, address) : undefined;
    showCell(cell, shown, message);
  }

  /**
   * Adds empty rows at the bottom of the sheet shown (a drag past the last row): the view grows,
   * no cell of the model moves.
   */
  addRows(count: number): void {
    const worksheet = this.worksheet(this.activeSheet());
    appendRows(worksheet, count);
    this.windows?.sync(true);
  }

  /** Puts the rows now in view in the page (after a scroll made by code, before reading it). */
  showRowsInView(): void {
    this.windows?.sync();
  }

  private nameOf(instance: WorksheetInstance): string {
    return String(instance.options.worksheetName);
  }
}

function coordinates(address: string): { x: number; y: number } {
  const match = /^([A-Z]+)(\d+)$/.exec(address);
  if (!match) throw new Error(`Not a cell address: ${address}`);
  const x = [...match[1]].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0) - 1;
  return { x, y: Number(match[2]) - 1 };
}
