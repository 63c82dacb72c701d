/**
 * A small Excel workbook model behind `office-addin-mock`, for the task pane's specs, benchmark
 * and screenshots.
 *
 * Every object the add-in touches (request context, workbook, worksheets, ranges, document
 * settings) is an `OfficeMockObject`, so a property read without `load` + `context.sync()` fails.
 * Unlike a bare mock, this one also behaves like Excel where the task pane relies on it:
 * - queued operations (writes of `values` / `formulas` / `numberFormat`, loads) are applied in
 *   order at `context.sync()`, against a grid of cells; nothing is written before the sync;
 * - a string written through `values` is parsed like typed input unless the cell's number format
 *   is Text ("@"): `=…`, `+…`, `-…`, `@…` become formulas, numeric text a number, TRUE/FALSE a boolean;
 * - `null` in a 2-D array leaves that cell alone (Office's documented rule);
 * - a sync whose request or response exceeds Office's 5 MB payload limit fails, as in Excel;
 * - a `settings.saveAsync` of more than 1 MB of settings fails as Excel desktop's does ("The
 *   argument is invalid or missing or has an incorrect format", OfficeDev/office-js issue 3957;
 *   Microsoft documents 2 MB for `Office.Settings`), and the document keeps its last saved settings;
 * - `Worksheet.getUsedRange(valuesOnly)` / `getUsedRangeOrNullObject`, whole-column and whole-row
 *   selections reported as Excel reports them (`Sheet1!A:C`, `Sheet1!3:5`);
 * - sheets the add-in adds (`worksheets.add`, `getItemOrNullObject`), with `visibility`
 *   (`VeryHidden` sheets are not shown to the user, their cells are the add-in's);
 * - it counts syncs, the syncs that wrote and the syncs that read, and payload sizes;
 * - structural edits move cells as Excel does: `insertColumns`, `insertRows`, `deleteRows`,
 *   `sortRows` (a user's edit, at any moment) and `Range.insert("Right" | "Down")` of whole
 *   columns or rows (`getRange("D:E")`, the add-in's own inserts, applied at sync).
 */
import { blockAddress, LAST_COLUMN, LAST_ROW, parseAddress } from "./a1.js";
import type { CellBlock } from "./a1.js";
import { cellAt, nonEmptyCells, readBlock, usedBlockOf, writeValue } from "./cellGrid.js";
import { officeNamespace } from "./officeNamespace.js";
import { excelNamespace } from "./excelNamespace.js";
import { quoteSheet } from "./mockRanges.js";
import { MockOfficeError } from "./MockOfficeError.js";
import type {
  MockCell,
  MockCellValue,
  MockWorkbookOptions,
  MockWorkbookStats,
} from "./mockWorkbookTypes.js";
import { sortRowsOf } from "./structuralEdits.js";
import { applyChange, revertChange } from "./structuralChange.js";
import type { RowOrder, StructuralChange, StructuralEdit } from "./structuralChange.js";
import { emptyWorkbookState } from "./workbookState.js";
import { restoreSnapshot, takeSnapshot } from "./workbookSnapshot.js";
import type { WorkbookSnapshot } from "./workbookSnapshot.js";
import type { WorkbookState } from "./workbookState.js";

export type {
  MockCell,
  MockCellValue,
  MockWorkbookOptions,
  MockWorkbookStats,
} from "./mockWorkbookTypes.js";
export { SETTINGS_TOO_LARGE_MESSAGE } from "./documentSettings.js";
export { MockOfficeError } from "./MockOfficeError.js";

/**
 * The workbook model. `install()` puts `Excel` and `Office` globals in place.
 *
 * @example
 * const workbook = new MockWorkbook({ sheets: { Sheet1: [["text"], ["hello"]] }, selection: "Sheet1!A1:A2" });
 * const uninstall = workbook.install();
 */
export class MockWorkbook {
  readonly stats: MockWorkbookStats = {
    syncs: 0,
    writeSyncs: 0,
    hiddenWriteSyncs: 0,
    readSyncs: 0,
    runs: 0,
    maxRequestBytes: 0,
    maxResponseBytes: 0,
    mockMs: 0,
    settingsSaves: 0,
    largestSettingsBytes: 0,
    failedSettingsSaves: 0,
  };
  /** `Excel.CalculationType` values passed to `application.calculate`. */
  readonly calculations: string[] = [];
  /** Ranges recalculated with `Range.calculate()`, as `Sheet1!B2`. */
  readonly rangeCalculations: string[] = [];
  /** See `MockWorkbookOptions.excelApiVersion`. */
  readonly excelApiVersion: string | undefined;
  /** Document settings as last saved with `saveAsync` (what survives a reload). */
  savedSettings: Record<string, unknown> = {};
  /** Document settings as the running add-in sees them. */
  settings: Record<string, unknown> = {};
  selection: string;
  payloadLimitBytes: number;
  settingsLimitBytes: number;
  /** Called after every sync, with the sync's number; specs edit cells here "while a run goes on". */
  afterSync: ((syncNumber: number) => void) | undefined;
  /**
   * Called when cells change: a block that was written (by a user's `setValues` or an add-in's
   * sync), or no block for a structural edit (anything may have moved). The playground's formula
   * engine and grid listen here.
   */
  onCellsChanged: ((change: { sheet: string; block?: CellBlock }) => void) | undefined;
  /** Called when the add-in calculates a range (`Range.calculate()`): the formula engine listens. */
  onRecalculate: ((range: { sheet: string; block: CellBlock }) => void) | undefined;
  /**
   * Called when a sync reaches "Excel", before any of its operations, with the addresses it
   * writes (`Sheet1!B2:C4`): a user's edit made here lands between the add-in's last read and
   * this write, the window a write must survive.
   */
  beforeSync: ((sync: { syncNumber: number; writes: string[] }) => void) | undefined;

  /**
   * Called after anything a saved file would keep changed (cells, sheets, names, saved document
   * settings): the playground saves the document here.
   */
  onDocumentChanged: (() => void) | undefined;

  /** The grid, spills, names, hidden rows and sheet ids, shared with the proxy modules. */
  private readonly state: WorkbookState = emptyWorkbookState();

  constructor(options: MockWorkbookOptions = {}) {
    for (const [name, rows] of Object.entries(options.sheets ?? { Sheet1: [] })) {
      this.state.sheets.set(name, new Map());
      this.state.sheetIds.set(
        name,
        `{00000000-0001-0000-0000-${String(this.state.sheetIds.size).padStart(12, "0")}}`
      );
      this.setValues(name, "A1", rows);
    }
    this.selection = options.selection ?? "Sheet1!A1";
    this.payloadLimitBytes = options.payloadLimitBytes ?? 5 * 1024 * 1024;
    this.excelApiVersion = options.excelApiVersion;
    this.settingsLimitBytes = options.settingsLimitBytes ?? 1024 * 1024;
  }

  /**
   * The document as a saved file holds it (cells, sheets, names, saved settings), as plain data.
   *
   * @return A snapshot sharing nothing with the workbook.
   */
  snapshot(): WorkbookSnapshot {
    return takeSnapshot(this.state, this.savedSettings);
  }

  /**
   * Opens a document from its snapshot: its cells and its saved settings, as Excel opens a file.
   *
   * @param snapshot What `snapshot()` gave.
   * @param options The host's options (the snapshot's sheets replace `options.sheets`).
   * @return The workbook.
   */
  static fromSnapshot(snapshot: WorkbookSnapshot, options: MockWorkbookOptions = {}): MockWorkbook {
    const workbook = new MockWorkbook({ ...options, sheets: {} });
    restoreSnapshot(workbook.state, snapshot);
    workbook.savedSettings = structuredClone(snapshot.settings);
    workbook.settings = structuredClone(snapshot.settings);
    return workbook;
  }

  private cellsChanged(change: { sheet: string; block?: CellBlock }): void {
    this.onCellsChanged?.(change);
    this.onDocumentChanged?.();
  }

  /** A sheet's visibility as the add-in set it (`Visible`, `Hidden`, `VeryHidden`). */
  sheetVisibility(sheet: string): string | undefined {
    return this.state.sheets.has(sheet)
      ? (this.state.visibility.get(sheet) ?? "Visible")
      : undefined;
  }

  /** The names of the sheets, in order, hidden ones included. */
  sheetNames(): string[] {
    return [...this.state.sheets.keys()];
  }

  /** Adds an empty sheet (as the add-in's `worksheets.add` does at sync, or the grid's "+" tab). */
  addSheet(name: string): void {
    if (this.state.sheets.has(name)) {
      throw new MockOfficeError("ItemAlreadyExists", `A sheet named ${name} exists.`);
    }
    this.state.sheets.set(name, new Map());
    this.state.sheetIds.set(
      name,
      `{00000000-0001-0000-0000-${String(this.state.sheetIds.size).padStart(12, "0")}}`
    );
    this.onDocumentChanged?.();
  }

  /**
   * The used range of a sheet as `Worksheet.getUsedRange(valuesOnly)` sees it: the smallest
   * block holding every cell with a value or formula (with `valuesOnly` false, also cells whose
   * number format was set). Undefined for an empty sheet.
   */
  usedBlock(sheet: string, valuesOnly = true): CellBlock | undefined {
    return usedBlockOf(this.state, sheet, valuesOnly);
  }

  /** Renames a sheet as a user would: its cells and its id stay, its name changes. */
  renameSheet(from: string, to: string): void {
    const cells = this.state.sheets.get(from);
    const id = this.state.sheetIds.get(from);
    if (!cells || id === undefined) throw new Error(`No sheet named ${from}`);
    this.state.sheets.delete(from);
    this.state.sheetIds.delete(from);
    this.state.sheets.set(to, cells);
    this.state.sheetIds.set(to, id);
    if (this.selection.startsWith(`${from}!`)) {
      this.selection = `${to}!${this.selection.slice(from.length + 1)}`;
    }
    this.onDocumentChanged?.();
  }

  /**
   * Hides rows (zero-based), as a user hiding them or a filter leaving them out would;
   * `Range.getVisibleView()` leaves them out.
   */
  hideRows(sheet: string, rows: readonly number[]): void {
    const hidden = this.state.hidden.get(sheet) ?? new Set<number>();
    for (const row of rows) hidden.add(row);
    this.state.hidden.set(sheet, hidden);
    this.onDocumentChanged?.();
  }

  /** Inserts `count` empty columns before column `at` (zero-based), moving cells right, as Excel does. */
  insertColumns(sheet: string, at: number, count = 1): StructuralChange {
    return this.changeStructure({ sheet, axis: "column", at, count });
  }

  /** Inserts `count` empty rows before row `at` (zero-based), moving cells down. */
  insertRows(sheet: string, at: number, count = 1): StructuralChange {
    return this.changeStructure({ sheet, axis: "row", at, count });
  }

  /** Deletes `count` rows from row `at` (zero-based); the cells below move up. */
  deleteRows(sheet: string, at: number, count = 1): StructuralChange {
    return this.changeStructure({ sheet, axis: "row", at, count: -count });
  }

  /** Deletes `count` columns from column `at` (zero-based); the cells to the right move left. */
  deleteColumns(sheet: string, at: number, count = 1): StructuralChange {
    return this.changeStructure({ sheet, axis: "column", at, count: -count });
  }

  /**
   * Moves whole rows to a new order, as a grid's sort does: `order[i]` is the row (zero-based)
   * that ends up at row `i`; rows past `order` stay; `rebase` rewrites a moved formula.
   */
  moveRows(sheet: string, order: readonly number[], rebase?: RowOrder["rebase"]): StructuralChange {
    return this.changeStructure({ sheet, order, rebase });
  }

  /** A structural edit (see `applyChange`; spills crossed spill again), which can be undone. */
  changeStructure(edit: StructuralEdit): StructuralChange {
    const change = applyChange(this.state, edit);
    this.cellsChanged({ sheet: edit.sheet });
    return change;
  }

  /** Takes a structural edit back, as Excel's Undo does (see `revertChange`; it may refuse). */
  revertStructure(change: StructuralChange): void {
    revertChange(this.state, change);
    this.cellsChanged({ sheet: change.edit.sheet });
  }

  /**
   * Visits every stored cell with its position. The cell objects are the model's own and move
   * with structural edits, so they can key state that must follow a cell (a formula's calls).
   */
  forEachCell(visit: (sheet: string, row: number, column: number, cell: MockCell) => void): void {
    for (const [sheet, rows] of this.state.sheets) {
      for (const [row, cells] of rows)
        for (const [column, cell] of cells) visit(sheet, row, column, cell);
    }
  }

  /** Where a workbook name refers to now ("Sheet1!A3:C9"), undefined when gone (#REF!). */
  nameAddress(name: string): string | undefined {
    const target = this.state.names.get(name);
    return target ? `${quoteSheet(target.sheet)}!${blockAddress(target.block)}` : undefined;
  }

  /** Every workbook name the add-in left (for "nothing left behind" checks). */
  nameList(): string[] {
    return [...this.state.names.keys()];
  }

  /**
   * Sorts the rows `top`..`top + rowCount - 1` of a sheet as Excel's Sort does over a block that
   * spans every used column: each row moves whole (all its cells), ordered by `key` of its cells.
   */
  sortRows(
    sheet: string,
    top: number,
    rowCount: number,
    key: (cells: MockCellValue[]) => string | number
  ): void {
    sortRowsOf(this.state, sheet, top, rowCount, key);
    this.cellsChanged({ sheet });
  }

  /** Puts `Excel` and `Office` on `target` (default `globalThis`); returns a function undoing it. */
  install(
    target: Record<string, unknown> = globalThis as unknown as Record<string, unknown>
  ): () => void {
    const before = { Excel: target.Excel, Office: target.Office };
    target.Excel = excelNamespace(this, this.state);
    target.Office = officeNamespace(this);
    return () => {
      target.Excel = before.Excel;
      target.Office = before.Office;
    };
  }

  /** Simulates closing and reopening the document: unsaved document settings are lost. */
  reload(): void {
    this.settings = structuredClone(this.savedSettings);
  }

  /** Selects a range, e.g. "Sheet1!A1:C20". */
  select(address: string): void {
    this.selection = address;
  }

  /** A user typing values (rows of values from `topLeft`); strings are parsed like typed input. */
  setValues(sheet: string, topLeft: string, rows: MockCellValue[][]): void {
    const { block } = parseAddress(topLeft);
    // Reduced, not spread: a whole sheet's rows overflow the call stack as arguments.
    const columnCount = rows.reduce((most, row) => Math.max(most, row.length), 0);
    if (block.top + rows.length - 1 > LAST_ROW || block.left + columnCount - 1 > LAST_COLUMN) {
      throw new Error(`${rows.length}×${columnCount} values from ${topLeft} go past XFD1048576`);
    }
    rows.forEach((row, r) =>
      row.forEach((value, c) => writeValue(this.state, sheet, block.top + r, block.left + c, value))
    );
    if (rows.length > 0 && columnCount > 0) {
      this.cellsChanged({ sheet, block: { ...block, rowCount: rows.length, columnCount } });
    }
  }

  /** Sets one cell's formula and shown value, as a recalculated formula would have it. */
  setFormula(sheet: string, address: string, formula: string, value: MockCellValue): void {
    const { block } = parseAddress(address);
    const cell = cellAt(this.state, sheet, block.top, block.left, true);
    cell.formula = formula;
    cell.value = value;
    this.onDocumentChanged?.();
  }

  /**
   * A formula whose result spills (a dynamic array): the anchor holds the formula and the first
   * value, the other cells show the rest. Overwriting the anchor clears them, as in Excel.
   */
  setSpill(sheet: string, anchor: string, formula: string, values: MockCellValue[][]): void {
    const { block } = parseAddress(anchor);
    values.forEach((row, r) =>
      row.forEach((value, c) => {
        const cell = cellAt(this.state, sheet, block.top + r, block.left + c, true);
        delete cell.formula;
        cell.value = value;
      })
    );
    cellAt(this.state, sheet, block.top, block.left, true).formula = formula;
    this.state.spills.set(`${sheet}!${blockAddress({ ...block, rowCount: 1, columnCount: 1 })}`, {
      ...block,
      rowCount: values.length,
      columnCount: values[0].length,
    });
    this.onDocumentChanged?.();
  }

  /** The cell at an A1 address (an empty General cell when never written). */
  cell(sheet: string, address: string): MockCell {
    const { block } = parseAddress(address);
    return { ...cellAt(this.state, sheet, block.top, block.left, false) };
  }

  /** Values of a block, as `Range.values` would return them. */
  values(sheet: string, address: string): MockCellValue[][] {
    const { block } = parseAddress(address);
    return readBlock(this.state, sheet, block, "values") as MockCellValue[][];
  }

  /** Every non-empty cell of every sheet, for scans such as "the key is in no cell". */
  allCells(): Array<{ sheet: string; address: string; cell: MockCell }> {
    return nonEmptyCells(this.state);
  }

  /**
   * The block a formula at a cell spills into (as last written or opened), undefined when it
   * spills nothing: the formula engine takes those cells for the formula's own.
   */
  spillAt(sheet: string, address: string): CellBlock | undefined {
    const block = this.state.spills.get(`${sheet}!${address}`);
    return block && { ...block };
  }

  /** The last used row (zero-based) of a sheet, -1 when empty. */
  lastRow(sheet: string): number {
    let last = -1; // a loop, not a spread: a whole sheet's rows overflow the call stack
    for (const row of this.state.sheets.get(sheet)?.keys() ?? []) last = Math.max(last, row);
    return last;
  }
}
