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
 * - the grid holds a block of the sheet near the view (SheetBlock: its cell (x, y) is the model's
 *   cell at the block's origin plus (x, y)), and of it only the rows near the view are in the page
 *   (RowWindow), so every row to 1,048,576 and every column to XFD is reached, and long sheets
 *   scroll smoothly.
 */
import jspreadsheet from "jspreadsheet-ce";
import type { WorksheetInstance } from "jspreadsheet-ce";
import { Observable, Subject } from "rxjs";
import { blockAddress, columnName } from "../../taskpane/sheet/a1Address.js";
import { parseAddress } from "../excel/a1.js";
import type { CellBlock } from "../excel/a1.js";
import type { DisplayChange } from "../formulas/formulaEngine.js";
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import { compareForSort } from "../excel/compareForSort.js";
import { quoteSheet } from "../excel/mockRanges.js";
import { isErrorValue, showCell } from "./cellLook.js";
import { pastedInputs } from "./gridClipboard.js";
import type { Copied } from "./gridClipboard.js";
import { inputAt, replayIntoModel, sortModelRows, typedIntoModel } from "./gridEdits.js";
import { GridRefresher } from "./gridRefresher.js";
import { appendRows, quietly } from "./quietly.js";
import { BLOCK_ROWS, SheetBlock } from "./sheetBlock.js";
import { SheetWindows } from "./sheetWindows.js";

/** A selection of the model: its anchor (where it started) and its active end (where it moved). */
export interface ModelSelection {
  anchor: { row: number; column: number };
  end: { row: number; column: number };
}

/** A column's width when the sheet gives it none. */
const DEFAULT_COLUMN_WIDTH = 120;
/** Columns of the block of a sheet made with the "+" tab (enough to cover a wide view). */
const NEW_SHEET_COLUMNS = 16;

/**
 * One sheet of the grid: its name and the size of the block of it the grid holds (the sheet is
 * Excel's size; the block shows the part of it near the view).
 */
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
  private readonly blocks = new Map<string, SheetBlock>();
  private readonly modelSelections = new Map<string, ModelSelection>();
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
        blockOf: (sheet) => this.blocks.get(sheet),
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
    this.windows?.hold(sheet, y, x);
    const block = this.blockOf(sheet);
    this.worksheet(sheet).setValueFromCoords(x - block.column, y - block.row, text, true);
  }

  /** What the cell shows (the model's value, as the grid renders it; "" outside the block). */
  shown(sheet: string, address: string): string {
    const { x, y } = coordinates(address);
    const block = this.blockOf(sheet);
    if (!block.holds(y, x)) return "";
    const cell = this.worksheet(sheet).getCellFromCoords(x - block.column, y - block.row);
    return cell?.textContent ?? "";
  }

  /** The block of a sheet the grid holds now. */
  blockOf(sheet: string): SheetBlock {
    const block = this.blocks.get(sheet);
    if (!block) throw new Error(`No sheet named ${sheet}`);
    return block;
  }

  /** The model's selection on a sheet (A1 until a cell is selected). */
  selectionOf(sheet: string): ModelSelection {
    return (
      this.modelSelections.get(sheet) ?? {
        anchor: { row: 0, column: 0 },
        end: { row: 0, column: 0 },
      }
    );
  }

  /**
   * Goes to a cell or a range of the sheet shown (the Name Box, Ctrl+G, Ctrl+arrows): the block
   * moves there when it holds no such cell, the view scrolls to it, and it is selected.
   *
   * @param address "XFD1048576", "B2:C9", or with a sheet ("Sheet2!A1").
   * @throws Error when it is not an address of a sheet of the grid.
   */
  goTo(address: string): void {
    const { sheet: named, block } = parseAddress(address.trim());
    const sheet = named || this.activeSheet();
    if (!this.worksheets.has(sheet)) throw new Error(`No sheet named ${sheet}`);
    this.select(sheet, {
      anchor: { row: block.top, column: block.left },
      end: { row: block.top + block.rowCount - 1, column: block.left + block.columnCount - 1 },
    });
  }

  /**
   * Selects in the model and in the grid, the view following the selection's active end.
   */
  select(sheet: string, selection: ModelSelection): void {
    const { anchor, end } = selection;
    this.windows?.hold(sheet, end.row, end.column);
    this.modelSelections.set(sheet, selection);
    this.showSelection(sheet);
    const block = toBlock(selection);
    this.workbook.select(`${quoteSheet(sheet)}!${blockAddress(block)}`);
    this.selectedCell.next({ sheet, address: `${columnName(anchor.column)}${anchor.row + 1}` });
    this.windows?.reveal(sheet, end.row, end.column);
    // Keys typed next go to this sheet's grid (as after a click in it).
    (jspreadsheet as unknown as { current: WorksheetInstance | null }).current =
      this.worksheet(sheet);
  }

  /** Shows the model's selection in the grid, as far as the block holds it. */
  private showSelection(sheet: string): void {
    const worksheet = this.worksheet(sheet);
    const block = this.blockOf(sheet);
    const selection = this.modelSelections.get(sheet);
    quietly(worksheet, () => {
      if (!selection || !block.holds(selection.end.row, selection.end.column)) {
        worksheet.resetSelection();
        return;
      }
      const clamp = (row: number, column: number) => [
        Math.max(0, Math.min(block.columnCount() - 1, column - block.column)),
        Math.max(0, Math.min(block.rowCount() - 1, row - block.row)),
      ];
      const [x1, y1] = clamp(selection.anchor.row, selection.anchor.column);
      const [x2, y2] = clamp(selection.end.row, selection.end.column);
      worksheet.updateSelectionFromCoords(x1, y1, x2, y2);
    });
  }

  private build(element: HTMLElement): Promise<void> {
    return new Promise<void>((resolve) => {
      jspreadsheet(element as HTMLDivElement, {
        tabs: true,
        parseFormulas: false, // formulas are the formula engine's, over the model
        onload: () => resolve(),
        sorting: (order) => (a, b) => compareForSort(a, b, order),
        onafterchanges: (instance, changes) =>
          typedIntoModel(this.workbook, this.nameOf(instance), this.toModel(instance, changes)),
        // Coordinates come as text after some selections (a click on a row header): numbers.
        onselection: (instance, x1, y1, x2, y2) =>
          this.selected(instance, Number(x1), Number(y1), Number(x2), Number(y2)),
        oninsertrow: (instance, rows) => {
          const { row } = this.originOf(instance);
          const at = row + Math.min(...rows.map((inserted) => Number(inserted.row)));
          this.workbook.insertRows(this.nameOf(instance), at, rows.length);
          this.structureChanged(instance);
        },
        ondeleterow: (instance, removed) => {
          const { row } = this.originOf(instance);
          const rows = [...removed].map(Number).sort((a, b) => b - a);
          for (const y of rows) this.workbook.deleteRows(this.nameOf(instance), row + y, 1);
          this.structureChanged(instance);
        },
        oninsertcolumn: (instance, columns) => {
          const { column } = this.originOf(instance);
          const at = column + Math.min(...columns.map((inserted) => Number(inserted.column)));
          this.workbook.insertColumns(this.nameOf(instance), at, columns.length);
          this.structureChanged(instance);
        },
        ondeletecolumn: (instance, removed) => {
          const { column } = this.originOf(instance);
          const columns = [...removed].map(Number).sort((a, b) => b - a);
          for (const x of columns)
            this.workbook.deleteColumns(this.nameOf(instance), column + x, 1);
          this.structureChanged(instance);
        },
        onsort: (instance, column, order) => {
          // The grid sorted the rows it holds; the sheet's rows are the model's: every row of the
          // sheet is sorted alike (the grid then shows the model's rows again).
          const sheet = this.nameOf(instance);
          const block = this.blockOf(sheet);
          const rows = Math.max(block.row + block.rowCount(), this.workbook.lastRow(sheet) + 1);
          const by = block.column + Number(column);
          const sorted = Array.from({ length: rows }, (_, row): [number, string] => [
            row,
            this.inputAt(sheet, row, by),
          ]).sort((a, b) => compareForSort(a, b, order ? 1 : 0));
          sortModelRows(
            this.workbook,
            sheet,
            sorted.map(([row]) => row)
          );
          this.windows?.sync(true);
        },
        // The grid's own undo and redo go through the model, so the sheet and SPELL agree.
        onundo: (instance, record) =>
          replayIntoModel(
            this.workbook,
            this.nameOf(instance),
            record,
            "oldValue",
            this.originOf(instance)
          ),
        onredo: (instance, record) =>
          replayIntoModel(
            this.workbook,
            this.nameOf(instance),
            record,
            "value",
            this.originOf(instance)
          ),
        oncopy: (instance, range) => this.remember(instance, range),
        onbeforepaste: (instance, pasted, x, y) =>
          this.pasting(
            pasted,
            this.originOf(instance).column + Number(x),
            this.originOf(instance).row + Number(y)
          ) as unknown as string | undefined,
        // The "+" tab: a real sheet of the model, whose formulas evaluate.
        oncreateworksheet: (worksheet) => this.added(worksheet),
        worksheets: this.sheets.map((sheet) => ({
          worksheetName: sheet.name,
          minDimensions: [sheet.columns, sheet.rows] as [number, number],
          data: this.inputsOf(sheet),
          columns: Array.from({ length: sheet.columns }, (_, column) =>
            this.columnOf(sheet.name, sheet.columnWidths?.[column] ?? DEFAULT_COLUMN_WIDTH)
          ),
          // Enter on the block's last row and Tab on its last column move on in the sheet (the
          // block follows); they never insert a row or a column as jspreadsheet's would.
          allowManualInsertRow: false,
          allowManualInsertColumn: false,
        })),
      });
    }).then(() => {
      const spreadsheet = (
        jspreadsheet as unknown as { spreadsheet: { worksheets: WorksheetInstance[] }[] }
      ).spreadsheet;
      const built = spreadsheet[spreadsheet.length - 1].worksheets;
      this.sheets.forEach((sheet, index) => this.worksheets.set(sheet.name, built[index]));
      const windows = (this.windows = new SheetWindows(element, (sheet) =>
        this.showSelection(sheet)
      ));
      this.worksheets.forEach((worksheet, sheet) =>
        windows.add(sheet, worksheet, this.blockFor(sheet, worksheet))
      );
      // The formula bar follows the sheet chosen, as Excel's shows that sheet's active cell.
      element.querySelector(".jtabs-headers")?.addEventListener("click", () =>
        setTimeout(() => {
          this.windows?.sync(true);
          this.tabChosen();
        })
      );
    });
  }

  /** The block a worksheet holds, made when the worksheet is. */
  private blockFor(sheet: string, worksheet: WorksheetInstance): SheetBlock {
    const widths = this.sheets.find((known) => known.name === sheet)?.columnWidths ?? [];
    const block = new SheetBlock(
      worksheet,
      (column) => widths[column] ?? DEFAULT_COLUMN_WIDTH,
      (x, y) => {
        const data = worksheet.options.data as unknown[][];
        data[y][x] = this.inputAt(sheet, block.row + y, block.column + x);
        this.render(sheet, worksheet.getCellFromCoords(x, y), x, y);
      },
      (width) => this.columnOf(sheet, width)
    );
    this.blocks.set(sheet, block);
    return block;
  }

  /** The model cell of a worksheet's first cell. */
  private originOf(instance: WorksheetInstance): { row: number; column: number } {
    const block = this.blocks.get(this.nameOf(instance));
    return { row: block?.row ?? 0, column: block?.column ?? 0 };
  }

  /** The grid's changes, at the model's cells. */
  private toModel<T extends { x: number | string; y: number | string }>(
    instance: WorksheetInstance,
    changes: readonly T[]
  ): T[] {
    const { row, column } = this.originOf(instance);
    return changes.map((change) => ({
      ...change,
      x: column + Number(change.x),
      y: row + Number(change.y),
    }));
  }

  /** Rows or columns inserted or deleted: the headers show the model's numbers again. */
  private structureChanged(instance: WorksheetInstance): void {
    this.blocks.get(this.nameOf(instance))?.label();
    this.windows?.sync(true);
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
      columns[column] = { ...columns[column], ...this.columnOf(name, DEFAULT_COLUMN_WIDTH) };
    }
    // jspreadsheet makes it small: it holds as much of the sheet as the others.
    const more = { rows: BLOCK_ROWS - data.length, columns: NEW_SHEET_COLUMNS - count };
    if (more.rows > 0) appendRows(worksheet, more.rows);
    if (more.columns > 0) {
      quietly(worksheet, () => worksheet.insertColumn(more.columns));
      for (let column = count; column < NEW_SHEET_COLUMNS; column++) {
        columns[column] = { ...columns[column], ...this.columnOf(name, DEFAULT_COLUMN_WIDTH) };
      }
    }
    // Its cells were built before they had the model's look: they take it now.
    (worksheet.getData(false, false) as unknown[][]).forEach((row, y) =>
      row.forEach((_, x) => this.render(name, worksheet.getCellFromCoords(x, y), x, y))
    );
    this.windows?.add(name, worksheet, this.blockFor(name, worksheet));
    // The new sheet is shown: the formula bar shows its cell, not the last sheet's.
    setTimeout(() => this.tabChosen());
  }

  /** A copy in the grid: its cells' inputs, so a paste brings formulas, not values. */
  private remember(
    instance: WorksheetInstance,
    range: [number, number, number, number]
  ): undefined {
    const sheet = this.nameOf(instance);
    const origin = this.originOf(instance);
    const [left, top, right, bottom] = range.map(Number);
    const rows = Array.from({ length: bottom - top + 1 }, (_, r) => top + r);
    const columns = Array.from({ length: right - left + 1 }, (_, c) => left + c);
    this.copied = {
      sheet,
      left: origin.column + left,
      top: origin.row + top,
      inputs: rows.map((y) =>
        columns.map((x) => this.inputAt(sheet, origin.row + y, origin.column + x))
      ),
      shown: rows.map((y) => columns.map((x) => instance.getCellFromCoords(x, y)?.innerHTML ?? "")),
    };
    return undefined;
  }

  /**
   * A paste of what was copied in the grid: the copied formulas, their relative references
   * moved by the distance from the copy to the paste, as Excel pastes formulas.
   */
  private pasting(pasted: { value: unknown }[][], x: number, y: number): string[][] | undefined {
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
    const { row, column } = this.originOf(instance);
    const selection = {
      anchor: { row: row + y1, column: column + x1 },
      end: { row: row + y2, column: column + x2 },
    };
    const sheet = this.nameOf(instance);
    this.modelSelections.set(sheet, selection);
    this.workbook.select(`${quoteSheet(sheet)}!${blockAddress(toBlock(selection))}`);
    this.selectedCell.next({
      sheet,
      address: `${columnName(selection.anchor.column)}${selection.anchor.row + 1}`,
    });
    // A move from the keyboard to a cell out of view: the view follows, except along a whole
    // row or column chosen by its header (Excel keeps the view where it is then).
    const block = this.blockOf(sheet);
    const wholeRow = Math.min(x1, x2) === 0 && Math.max(x1, x2) === block.columnCount() - 1;
    const wholeColumn = Math.min(y1, y2) === 0 && Math.max(y1, y2) === block.rowCount() - 1;
    if (wholeColumn) return;
    this.windows?.reveal(sheet, selection.end.row, wholeRow ? undefined : selection.end.column);
  }

  private render(sheet: string, cell: HTMLElement | null, x: number, y: number): void {
    if (!cell) return;
    const block = this.blocks.get(sheet);
    const address = `${columnName((block?.column ?? 0) + x)}${(block?.row ?? 0) + y + 1}`;
    // The model's address of the cell, for a person's tools and the specs (data-x and data-y are
    // the grid's own coordinates in its block).
    cell.dataset.cell = address;
    const shown = this.workbook.cell(sheet, address);
    // Why it shows an error (its tooltip): asked only of errors.
    const message = isErrorValue(String(shown.value)) ? this.messageAt(sheet, address) : undefined;
    showCell(cell, shown, message);
  }

  /** Puts the rows now in view in the page (after a scroll made by code, before reading it). */
  showRowsInView(): void {
    this.windows?.sync();
  }

  private nameOf(instance: WorksheetInstance): string {
    return String(instance.options.worksheetName);
  }
}

/** The block of cells a selection covers. */
function toBlock({ anchor, end }: ModelSelection): CellBlock {
  return {
    top: Math.min(anchor.row, end.row),
    left: Math.min(anchor.column, end.column),
    rowCount: Math.abs(end.row - anchor.row) + 1,
    columnCount: Math.abs(end.column - anchor.column) + 1,
  };
}

function coordinates(address: string): { x: number; y: number } {
  const match = /^([A-Z]+)(\d+)$/.exec(address);
  if (!match) throw new Error(`Not a cell address: ${address}`);
  const x = [...match[1]].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0) - 1;
  return { x, y: Number(match[2]) - 1 };
}
