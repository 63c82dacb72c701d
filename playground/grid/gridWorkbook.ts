/**
 * The playground's spreadsheet grid (jspreadsheet-ce) bound to the workbook model, so that what a
 * person does in the grid is what the add-in reads through `Excel.run`, and what the add-in or a
 * formula writes is what the grid shows.
 *
 * The model is the one source of truth; the grid is its view and its keyboard and mouse:
 * - a cell typed, pasted or filled (the fill handle) is written into the model as typed input
 *   (`=…` a formula, numeric text a number), which the formula engine then recalculates;
 * - insert and delete of rows and columns, and sort, move the model's cells (structureEvents);
 * - undo and redo take back a person's edits in the model, wherever they are (ModelUndo);
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
import { columnName } from "../../taskpane/sheet/a1Address.js";
import { parseAddress, type CellBlock } from "../excel/a1.js";
import type { DisplayChange } from "../formulas/formulaEngine.js";
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import { compareForSort } from "../excel/compareForSort.js";
import { showModelCell } from "./cellLook.js";
import { clipboardEvents } from "./clipboardEvents.js";
import { excelContextMenu } from "./excelContextMenu.js";
import { inputAt } from "./gridEdits.js";
import { fitAddedSheet } from "./addedSheet.js";
import { GridRefresher } from "./gridRefresher.js";
import { GridSelection, type ModelSelection } from "./gridSelection.js";
import { ModelUndo } from "./modelUndo.js";
import { SheetBlock } from "./sheetBlock.js";
import { SheetWindows } from "./sheetWindows.js";
import { followSheetTabs } from "./sheetTabs.js";
import { structureEvents } from "./structureEvents.js";
import { focusGrid } from "./typedText.js";
import { WorkbookViews } from "./workbookView.js";
import {
  DEFAULT_COLUMN_WIDTH,
  FIXED_SIZES,
  worksheetOptions,
  type GridSheet,
} from "./worksheetOptions.js";

export type { GridSheet } from "./worksheetOptions.js";

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
  private readonly refreshed = new Subject<void>();
  private readonly refresher: GridRefresher;
  private windows: SheetWindows | undefined;

  /** Emits after the grid showed the model's latest values. */
  readonly refreshes: Observable<void> = this.refreshed.asObservable();

  private readonly selection: GridSelection;
  private readonly history: ModelUndo;

  /** The active cell (the selection's first cell) whenever a person selects. */
  readonly selections: Observable<{ sheet: string; address: string }>;

  /** The sheet shown, each sheet's selection and scroll: read to be saved, or restored. */
  readonly views: WorkbookViews;

  private constructor(
    private readonly workbook: MockWorkbook,
    private readonly sheets: readonly GridSheet[],
    private readonly messageAt: (sheet: string, address: string) => string | undefined
  ) {
    this.selection = new GridSelection(workbook, {
      worksheetOf: (sheet) => this.worksheet(sheet),
      blockOf: (sheet) => this.blockOf(sheet),
      hasSheet: (sheet) => this.worksheets.has(sheet),
      activeSheet: () => this.activeSheet(),
      windows: () => this.windows,
    });
    this.selections = this.selection.selections;
    this.views = new WorkbookViews(
      {
        selection: this.selection,
        windows: () => this.windows,
        sheetNames: () => [...this.worksheets.keys()],
        activeSheet: () => this.activeSheet(),
        show: (sheet) => this.showSheet(sheet),
      },
      this.selections
    );
    // Excel's message box comes over the sheet as the model left it.
    this.history = new ModelUndo(workbook, (why) => setTimeout(() => window.alert(why)));
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
    const { top: y, left: x } = parseAddress(address).block;
    this.windows?.hold(sheet, y, x);
    const block = this.blockOf(sheet);
    this.worksheet(sheet).setValueFromCoords(x - block.column, y - block.row, text, true);
  }

  /** What the cell shows (the model's value, as the grid renders it; "" outside the block). */
  shown(sheet: string, address: string): string {
    const { top: y, left: x } = parseAddress(address).block;
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
    return this.selection.of(sheet);
  }

  /**
   * Goes to a cell or a range of the sheet shown (the Name Box, Ctrl+G, Ctrl+arrows): the block
   * moves there when it holds no such cell, the view scrolls to it, and it is selected.
   *
   * @param address "XFD1048576", "B2:C9", or with a sheet ("Sheet2!A1").
   * @throws Error when it is not an address of a sheet of the grid.
   */
  goTo(address: string): void {
    this.selection.goTo(address);
  }

  /** Selects in the model and in the grid, the view following the selection's active end. */
  select(sheet: string, selection: ModelSelection): void {
    this.selection.select(sheet, selection);
  }

  /**
   * Takes back a person's last edit (Ctrl+Z) wherever it is, and selects its cells.
   * @returns Whether there was an edit to take back.
   */
  undo(): boolean {
    const edit = this.history.undo();
    if (edit) this.selection.selectCells(edit.sheet, edit.cells);
    return edit !== undefined;
  }

  /** Cells written as typed (`x` the model's column, `y` its row), as one undoable edit. */
  typeCells(sheet: string, cells: readonly { x: number; y: number; value: string }[]): void {
    this.history.type(sheet, cells);
  }

  /** Delete on a selection: the model's cells in `block` are emptied, as one undoable edit. */
  erase(sheet: string, block: CellBlock): void {
    this.history.erase(sheet, block);
  }

  /** Makes again the last edit taken back (Ctrl+Y), as `undo` does. */
  redo(): boolean {
    const edit = this.history.redo();
    if (edit) this.selection.selectCells(edit.sheet, edit.cells);
    return edit !== undefined;
  }

  private build(element: HTMLElement): Promise<void> {
    return new Promise<void>((resolve) => {
      jspreadsheet(element as HTMLDivElement, {
        tabs: true,
        parseFormulas: false, // formulas are the formula engine's, over the model
        onload: () => resolve(),
        sorting: (order) => (a, b) => compareForSort(a, b, order),
        contextMenu: excelContextMenu,
        onafterchanges: (instance, changes) =>
          this.history.type(this.nameOf(instance), this.toModel(instance, changes)),
        // Coordinates come as text after some selections (a click on a row header): numbers.
        onselection: (instance, x1, y1, x2, y2) =>
          this.selection.selectedInGrid(
            this.nameOf(instance),
            Number(x1),
            Number(y1),
            Number(x2),
            Number(y2)
          ),
        ...structureEvents(this.workbook, this.history, {
          sheetOf: (instance) => this.nameOf(instance),
          blockOf: (sheet) => this.blockOf(sheet),
          activeRow: (sheet) => this.selection.of(sheet).anchor.row,
          changed: (instance) => this.structureChanged(instance),
          sorted: () => this.windows?.sync(true),
        }),
        ...clipboardEvents(this.workbook, this.history, {
          sheetOf: (instance) => this.nameOf(instance),
          originOf: (instance) => this.originOf(instance),
          selectionOf: (sheet) => this.selection.of(sheet),
          select: (sheet, selection) => this.select(sheet, selection),
        }),
        // A click outside the grid (the task pane, the page) took jspreadsheet's selection away:
        // Excel keeps the selection shown while another part of the window has the keyboard.
        onblur: (instance) => this.selection.show(this.nameOf(instance)),
        // The "+" tab: a real sheet of the model, whose formulas evaluate.
        oncreateworksheet: (worksheet) => this.added(worksheet),
        worksheets: this.sheets.map((sheet) =>
          worksheetOptions(sheet, this.workbook, (width) => this.columnOf(sheet.name, width))
        ),
      });
    }).then(() => {
      const spreadsheet = (
        jspreadsheet as unknown as { spreadsheet: { worksheets: WorksheetInstance[] }[] }
      ).spreadsheet;
      const built = spreadsheet[spreadsheet.length - 1].worksheets;
      this.sheets.forEach((sheet, index) => this.worksheets.set(sheet.name, built[index]));
      const windows = (this.windows = new SheetWindows(element, (sheet) =>
        this.selection.show(sheet)
      ));
      this.worksheets.forEach((worksheet, sheet) =>
        windows.add(sheet, worksheet, this.blockFor(sheet, worksheet))
      );
      // A tab chosen shows its sheet, which takes the keyboard at once.
      followSheetTabs(element.querySelector(".jtabs-headers"), {
        worksheet: () => this.worksheets.get(this.activeSheet()),
        takeKeyboard: () => this.sheetShown(),
        leaving: () => this.windows?.leaving(),
      });
    });
  }

  /**
   * The sheet shown takes the keyboard: its view is as it was left (its top left at first), its
   * active cell (A1 at first) selected and typed in.
   */
  private sheetShown(): void {
    const sheet = this.activeSheet();
    this.windows?.showSheet(sheet);
    // jspreadsheet scrolls a selection it is given towards its own idea of the view: the
    // sheet's view stays where it was left.
    const view = this.windows?.scrollOf(sheet);
    this.selection.resume(sheet);
    if (view) this.windows?.setScroll(sheet, view);
    focusGrid();
  }

  /** Shows a sheet, as a click on its tab does. */
  private showSheet(sheet: string): void {
    const index = [...this.worksheets.keys()].indexOf(sheet);
    if (index >= 0 && sheet !== this.activeSheet()) this.worksheet(sheet).openWorksheet(index);
    this.sheetShown();
  }

  /** The block a worksheet holds, made when the worksheet is. */
  private blockFor(sheet: string, worksheet: WorksheetInstance): SheetBlock {
    const widths = this.sheets.find((known) => known.name === sheet)?.columnWidths ?? [];
    const block = new SheetBlock(
      worksheet,
      (column) => widths[column] ?? DEFAULT_COLUMN_WIDTH,
      (x, y) => {
        const data = worksheet.options.data as unknown[][];
        data[y][x] = inputAt(this.workbook, sheet, block.row + y, block.column + x);
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
      // jspreadsheet then edits in a text area, which keeps a cell's line breaks (an input drops
      // them); the row keeps its height (playground.css), as Excel's does without wrap text.
      wordWrap: true,
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

  /** A sheet made with the "+" tab: the model gets it, and its cells show the model's values. */
  private added(worksheet: WorksheetInstance): void {
    const name = String(worksheet.options.worksheetName);
    Object.assign(worksheet.options, FIXED_SIZES);
    if (!this.workbook.sheetNames().includes(name)) this.workbook.addSheet(name);
    this.worksheets.set(name, worksheet);
    fitAddedSheet(
      worksheet,
      () => this.columnOf(name, DEFAULT_COLUMN_WIDTH),
      (cell, x, y) => this.render(name, cell, x, y)
    );
    this.windows?.add(name, worksheet, this.blockFor(name, worksheet));
    // The new sheet is shown once built: its A1 is active and takes the keyboard.
    setTimeout(() => this.sheetShown());
  }

  private render(sheet: string, cell: HTMLElement | null, x: number, y: number): void {
    const block = this.blocks.get(sheet);
    const address = `${columnName((block?.column ?? 0) + x)}${(block?.row ?? 0) + y + 1}`;
    if (!cell) return;
    const shown = this.workbook.cell(sheet, address);
    showModelCell(cell, shown, address, (at) => this.messageAt(sheet, at));
  }

  /** Puts the rows now in view in the page (after a scroll made by code, before reading it). */
  showRowsInView(): void {
    this.windows?.sync();
  }

  private nameOf(instance: WorksheetInstance): string {
    return String(instance.options.worksheetName);
  }
}
