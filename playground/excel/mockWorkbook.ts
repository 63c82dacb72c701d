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
import { OfficeMockObject } from "office-addin-mock";
import { blockAddress, columnName, parseAddress } from "./a1.js";
import type { CellBlock } from "./a1.js";
import { payloadBytes } from "../../taskpane/sheet/payloadBytes.js";
import {
  parseAnyAddress,
  lineAddress,
  wholeLines,
  loadList,
  checkShape,
  fillLoaded,
  quoteSheet,
} from "./mockRanges.js";
import { MockOfficeError } from "./MockOfficeError.js";

export type MockCellValue = string | number | boolean;

/** One cell of the model. */
export interface MockCell {
  value: MockCellValue;
  /** Set when the cell holds a formula (what Excel would show in the formula bar). */
  formula?: string;
  numberFormat: string;
}

/** Counters of what the add-in asked of "Excel". */
export interface MockWorkbookStats {
  /** Every `context.sync()`, including the implicit one at the end of `Excel.run`. */
  syncs: number;
  /** Syncs that carried at least one write to a sheet the user sees (not a very hidden one). */
  writeSyncs: number;
  /**
   * Syncs whose writes all went to very hidden sheets (the add-in's own records, counted apart
   * from the writes into the user's cells, as settings saves are).
   */
  hiddenWriteSyncs: number;
  /** Syncs that carried at least one load. */
  readSyncs: number;
  /** `Excel.run` batches. */
  runs: number;
  maxRequestBytes: number;
  maxResponseBytes: number;
  /** Time spent inside the mock's own sync work (to subtract from totals in benchmarks). */
  mockMs: number;
  /** `settings.saveAsync` calls, and the largest saved settings (JSON bytes). */
  settingsSaves: number;
  /** The largest settings a save was asked to store (JSON bytes), refused saves included. */
  largestSettingsBytes: number;
  /** Saves refused for being over `settingsLimitBytes`. */
  failedSettingsSaves: number;
}

/** What the tests can put in the model. */
export interface MockWorkbookOptions {
  /** Initial cells per sheet: rows of values starting at A1. @default { Sheet1: [] } */
  sheets?: Record<string, MockCellValue[][]>;
  /** The selected range, e.g. "Sheet1!A1:B501". @default "Sheet1!A1" */
  selection?: string;
  /** @default 5 MB */
  payloadLimitBytes?: number;
  /** Largest document settings a save accepts (JSON bytes). @default 1 MB, as Excel desktop */
  settingsLimitBytes?: number;
  /**
   * The highest ExcelApi requirement set of the host (e.g. "1.5": no `Range.calculate`). When
   * given, `Office.context.requirements.isSetSupported` answers from it and APIs of later sets
   * fail at sync with `ApiNotFound`. @default undefined: no `requirements`, every API modelled works
   */
  excelApiVersion?: string;
}

/** What Excel desktop answers to a settings save of more than about 1 MB. */
export const SETTINGS_TOO_LARGE_MESSAGE =
  "The argument is invalid or missing or has an incorrect format.";

type Operation =
  | { kind: "write"; sheet: string; block: CellBlock; property: WritableProperty; data: unknown }
  | {
      kind: "load";
      target: OfficeMockObject;
      sheet: string;
      block: CellBlock;
      properties: string[];
    }
  | { kind: "calculate"; calculationType: string }
  | { kind: "calculateRange"; sheet: string; block: CellBlock }
  | { kind: "insert"; sheet: string; block: CellBlock; shift: string }
  | { kind: "delete"; sheet: string; block: CellBlock; shift: string }
  | { kind: "lookup"; target: OfficeMockObject; fill: () => void }
  | { kind: "name"; name: string; target: { sheet: string; block: CellBlock } | undefined }
  | { kind: "fail"; code: string; message: string }
  | { kind: "requireSheet"; name: string }
  | { kind: "addSheet"; name: string }
  | { kind: "visibility"; name: string; visibility: string };

type WritableProperty = "values" | "formulas" | "numberFormat";
const WRITABLE: readonly string[] = ["values", "formulas", "numberFormat"];
const MOCK_ERRORS = ["Error, property was not loaded", "Error, context.sync() was not called"];

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

  private readonly sheets = new Map<string, Map<number, Map<number, MockCell>>>();
  /** Dynamic-array results: anchor cell ("Sheet1!B2") → the block its formula spills into. */
  private readonly spills = new Map<string, CellBlock>();

  /**
   * Workbook-scoped names → the block they refer to. As in Excel, structural edits move and
   * resize them (an insert inside a named block grows it, a delete shrinks it); a sort moves
   * cells inside the block, not the name.
   */
  private readonly names = new Map<string, { sheet: string; block: CellBlock } | undefined>();

  /** Hidden (or filtered-out) rows per sheet. */
  private readonly hidden = new Map<string, Set<number>>();

  /** Sheet name → its id, which, as in Excel, stays the same when the sheet is renamed. */
  private readonly sheetIds = new Map<string, string>();

  constructor(options: MockWorkbookOptions = {}) {
    for (const [name, rows] of Object.entries(options.sheets ?? { Sheet1: [] })) {
      this.sheets.set(name, new Map());
      this.sheetIds.set(
        name,
        `{00000000-0001-0000-0000-${String(this.sheetIds.size).padStart(12, "0")}}`
      );
      this.setValues(name, "A1", rows);
    }
    this.selection = options.selection ?? "Sheet1!A1";
    this.payloadLimitBytes = options.payloadLimitBytes ?? 5 * 1024 * 1024;
    this.excelApiVersion = options.excelApiVersion;
    this.settingsLimitBytes = options.settingsLimitBytes ?? 1024 * 1024;
  }

  /** Sheet name → its visibility ("Visible" unless the add-in changed it). */
  private readonly visibility = new Map<string, string>();

  /** A sheet's visibility as the add-in set it (`Visible`, `Hidden`, `VeryHidden`). */
  sheetVisibility(sheet: string): string | undefined {
    return this.sheets.has(sheet) ? (this.visibility.get(sheet) ?? "Visible") : undefined;
  }

  /** The names of the sheets, in order, hidden ones included. */
  sheetNames(): string[] {
    return [...this.sheets.keys()];
  }

  /** Adds an empty sheet (as the add-in's `worksheets.add` does at sync, or the grid's "+" tab). */
  addSheet(name: string): void {
    if (this.sheets.has(name)) {
      throw new MockOfficeError("ItemAlreadyExists", `A sheet named ${name} exists.`);
    }
    this.sheets.set(name, new Map());
    this.sheetIds.set(
      name,
      `{00000000-0001-0000-0000-${String(this.sheetIds.size).padStart(12, "0")}}`
    );
  }

  /**
   * The used range of a sheet as `Worksheet.getUsedRange(valuesOnly)` sees it: the smallest
   * block holding every cell with a value or formula (with `valuesOnly` false, also cells whose
   * number format was set). Undefined for an empty sheet.
   */
  usedBlock(sheet: string, valuesOnly = true): CellBlock | undefined {
    let top = Infinity;
    let bottom = -1;
    let left = Infinity;
    let right = -1;
    for (const [row, cells] of this.sheets.get(sheet) ?? []) {
      for (const [column, cell] of cells) {
        const used =
          cell.value !== "" ||
          cell.formula !== undefined ||
          (!valuesOnly && cell.numberFormat !== "General");
        if (!used) continue;
        top = Math.min(top, row);
        bottom = Math.max(bottom, row);
        left = Math.min(left, column);
        right = Math.max(right, column);
      }
    }
    if (bottom < 0) return undefined;
    return { top, left, rowCount: bottom - top + 1, columnCount: right - left + 1 };
  }

  /** Renames a sheet as a user would: its cells and its id stay, its name changes. */
  renameSheet(from: string, to: string): void {
    const cells = this.sheets.get(from);
    const id = this.sheetIds.get(from);
    if (!cells || id === undefined) throw new Error(`No sheet named ${from}`);
    this.sheets.delete(from);
    this.sheetIds.delete(from);
    this.sheets.set(to, cells);
    this.sheetIds.set(to, id);
    if (this.selection.startsWith(`${from}!`)) {
      this.selection = `${to}!${this.selection.slice(from.length + 1)}`;
    }
  }

  /**
   * Hides rows (zero-based), as a user hiding them or a filter leaving them out would;
   * `Range.getVisibleView()` leaves them out.
   */
  hideRows(sheet: string, rows: readonly number[]): void {
    const hidden = this.hidden.get(sheet) ?? new Set<number>();
    for (const row of rows) hidden.add(row);
    this.hidden.set(sheet, hidden);
  }

  /** Inserts `count` empty columns before column `at` (zero-based), moving cells right, as Excel does. */
  insertColumns(sheet: string, at: number, count = 1): void {
    this.remapCells(sheet, (row, column) => [row, column >= at ? column + count : column]);
    this.moveNames(sheet, "column", at, count);
    this.onCellsChanged?.({ sheet });
  }

  /** Inserts `count` empty rows before row `at` (zero-based), moving cells down. */
  insertRows(sheet: string, at: number, count = 1): void {
    this.remapCells(sheet, (row, column) => [row >= at ? row + count : row, column]);
    this.moveNames(sheet, "row", at, count);
    this.onCellsChanged?.({ sheet });
  }

  /** Deletes `count` rows from row `at` (zero-based); the cells below move up. */
  deleteRows(sheet: string, at: number, count = 1): void {
    this.remapCells(sheet, (row, column) =>
      row >= at && row < at + count ? undefined : [row >= at ? row - count : row, column]
    );
    this.moveNames(sheet, "row", at, -count);
    this.onCellsChanged?.({ sheet });
  }

  /** Deletes `count` columns from column `at` (zero-based); the cells to the right move left. */
  deleteColumns(sheet: string, at: number, count = 1): void {
    this.remapCells(sheet, (row, column) =>
      column >= at && column < at + count
        ? undefined
        : [row, column >= at ? column - count : column]
    );
    this.moveNames(sheet, "column", at, -count);
    this.onCellsChanged?.({ sheet });
  }

  /**
   * Moves whole rows to a new order, as a grid's sort does: `order[i]` is the row (zero-based)
   * that ends up at row `i`; rows past `order` stay where they are.
   */
  moveRows(sheet: string, order: readonly number[]): void {
    const destination = new Map(order.map((from, to) => [from, to]));
    this.remapCells(sheet, (row, column) => [destination.get(row) ?? row, column]);
    this.onCellsChanged?.({ sheet });
  }

  /**
   * Visits every stored cell with its position. The cell objects are the model's own and move
   * with structural edits, so they can key state that must follow a cell (a formula's calls).
   */
  forEachCell(visit: (sheet: string, row: number, column: number, cell: MockCell) => void): void {
    for (const [sheet, rows] of this.sheets) {
      for (const [row, cells] of rows)
        for (const [column, cell] of cells) visit(sheet, row, column, cell);
    }
  }

  /** Where a workbook name refers to now ("Sheet1!A3:C9"), undefined when gone (#REF!). */
  nameAddress(name: string): string | undefined {
    const target = this.names.get(name);
    return target ? `${quoteSheet(target.sheet)}!${blockAddress(target.block)}` : undefined;
  }

  /** Every workbook name the add-in left (for "nothing left behind" checks). */
  nameList(): string[] {
    return [...this.names.keys()];
  }

  /** Moves or resizes names on `sheet` for an insert (`count` > 0) or delete (< 0) at `at`. */
  private moveNames(sheet: string, axis: "row" | "column", at: number, count: number): void {
    for (const [name, target] of this.names) {
      if (!target || target.sheet !== sheet) continue;
      const start = axis === "row" ? target.block.top : target.block.left;
      const size = axis === "row" ? target.block.rowCount : target.block.columnCount;
      let newStart = start;
      let newSize = size;
      if (count > 0) {
        if (at <= start) newStart = start + count;
        else if (at < start + size) newSize = size + count;
      } else {
        const end = at - count; // deleted: at..end-1
        const overlap = Math.max(0, Math.min(end, start + size) - Math.max(at, start));
        if (end <= start) newStart = start + count;
        else if (at <= start) newStart = at;
        newSize = size - overlap;
      }
      if (newSize <= 0) {
        this.names.set(name, undefined); // the whole block was deleted: the name shows #REF!
        continue;
      }
      target.block =
        axis === "row"
          ? { ...target.block, top: newStart, rowCount: newSize }
          : { ...target.block, left: newStart, columnCount: newSize };
    }
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
    const rows = this.sheets.get(sheet) ?? new Map<number, Map<number, MockCell>>();
    // A loop, not a spread: a whole sheet's columns overflow the call stack as arguments.
    let width = 1;
    for (const cells of rows.values())
      for (const column of cells.keys()) width = Math.max(width, column + 1);
    const order = Array.from({ length: rowCount }, (_, i) => top + i)
      .map((row) => ({
        row,
        key: key(Array.from({ length: width }, (_, c) => rows.get(row)?.get(c)?.value ?? "")),
      }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.row - b.row));
    const destination = new Map(order.map(({ row }, i) => [row, top + i]));
    this.remapCells(sheet, (row, column) => [destination.get(row) ?? row, column]);
    this.onCellsChanged?.({ sheet });
  }

  /** Moves every cell of a sheet by `move` (undefined drops it). */
  private remapCells(
    sheet: string,
    move: (row: number, column: number) => [number, number] | undefined
  ): void {
    const before = this.sheets.get(sheet);
    if (!before) throw new Error(`No sheet named ${sheet}`);
    const after = new Map<number, Map<number, MockCell>>();
    for (const [row, cells] of before) {
      for (const [column, cell] of cells) {
        const to = move(row, column);
        if (!to) continue;
        let target = after.get(to[0]);
        if (!target) after.set(to[0], (target = new Map()));
        target.set(to[1], cell);
      }
    }
    this.sheets.set(sheet, after);
  }

  /** The sheet's name for a name or an id (Excel's `worksheets.getItem` takes either). */
  private sheetNamed(key: string): string {
    for (const [name, id] of this.sheetIds) if (id === key) return name;
    return key;
  }

  /** Puts `Excel` and `Office` on `target` (default `globalThis`); returns a function undoing it. */
  install(
    target: Record<string, unknown> = globalThis as unknown as Record<string, unknown>
  ): () => void {
    const before = { Excel: target.Excel, Office: target.Office };
    target.Excel = this.excelNamespace();
    target.Office = this.officeNamespace();
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
    rows.forEach((row, r) =>
      row.forEach((value, c) => this.writeValue(sheet, block.top + r, block.left + c, value))
    );
    // Reduced, not spread: a whole sheet's rows overflow the call stack as arguments.
    const columnCount = rows.reduce((most, row) => Math.max(most, row.length), 0);
    if (rows.length > 0 && columnCount > 0) {
      this.onCellsChanged?.({ sheet, block: { ...block, rowCount: rows.length, columnCount } });
    }
  }

  /** Sets one cell's formula and shown value, as a recalculated formula would have it. */
  setFormula(sheet: string, address: string, formula: string, value: MockCellValue): void {
    const { block } = parseAddress(address);
    const cell = this.cellAt(sheet, block.top, block.left, true);
    cell.formula = formula;
    cell.value = value;
  }

  /**
   * A formula whose result spills (a dynamic array): the anchor holds the formula and the first
   * value, the other cells show the rest. Overwriting the anchor clears them, as in Excel.
   */
  setSpill(sheet: string, anchor: string, formula: string, values: MockCellValue[][]): void {
    const { block } = parseAddress(anchor);
    values.forEach((row, r) =>
      row.forEach((value, c) => {
        const cell = this.cellAt(sheet, block.top + r, block.left + c, true);
        delete cell.formula;
        cell.value = value;
      })
    );
    this.cellAt(sheet, block.top, block.left, true).formula = formula;
    this.spills.set(`${sheet}!${blockAddress({ ...block, rowCount: 1, columnCount: 1 })}`, {
      ...block,
      rowCount: values.length,
      columnCount: values[0].length,
    });
  }

  /** The cell at an A1 address (an empty General cell when never written). */
  cell(sheet: string, address: string): MockCell {
    const { block } = parseAddress(address);
    return { ...this.cellAt(sheet, block.top, block.left, false) };
  }

  /** Values of a block, as `Range.values` would return them. */
  values(sheet: string, address: string): MockCellValue[][] {
    const { block } = parseAddress(address);
    return this.read(sheet, block, "values") as MockCellValue[][];
  }

  /** Every non-empty cell of every sheet, for scans such as "the key is in no cell". */
  allCells(): Array<{ sheet: string; address: string; cell: MockCell }> {
    const found: Array<{ sheet: string; address: string; cell: MockCell }> = [];
    for (const [sheet, rows] of this.sheets) {
      for (const [row, cells] of rows) {
        for (const [column, cell] of cells) {
          if (cell.value !== "" || cell.formula) {
            found.push({ sheet, address: `${columnName(column)}${row + 1}`, cell: { ...cell } });
          }
        }
      }
    }
    return found;
  }

  /** The last used row (zero-based) of a sheet, -1 when empty. */
  lastRow(sheet: string): number {
    let last = -1; // a loop, not a spread: a whole sheet's rows overflow the call stack
    for (const row of this.sheets.get(sheet)?.keys() ?? []) last = Math.max(last, row);
    return last;
  }

  private excelNamespace(): Record<string, unknown> {
    return {
      CalculationType: { full: "Full", recalculate: "Recalculate", fullRebuild: "FullRebuild" },
      SheetVisibility: { visible: "Visible", hidden: "Hidden", veryHidden: "VeryHidden" },
      run: async <T>(batch: (context: unknown) => Promise<T>): Promise<T> => {
        this.stats.runs++;
        const queue: Operation[] = [];
        const context = this.requestContext(queue);
        const result = await batch(context);
        // Excel.run sends what is still queued when the batch returns.
        if (queue.length > 0) await this.sync(queue);
        return result;
      },
    };
  }

  private officeNamespace(): Record<string, unknown> {
    const settings = new OfficeMockObject({
      get: (name: string) =>
        this.timed(() => (name in this.settings ? structuredClone(this.settings[name]) : null)),
      set: (name: string, value: unknown) =>
        this.timed(() => {
          this.settings[name] = structuredClone(value);
        }),
      remove: (name: string) => {
        delete this.settings[name];
      },
      saveAsync: (...args: unknown[]) => {
        const callback = args.find((arg) => typeof arg === "function") as
          | ((result: { status: string; error?: { code: number; message: string } }) => void)
          | undefined;
        const bytes = this.timed(() => {
          const size = new TextEncoder().encode(JSON.stringify(this.settings)).length;
          this.stats.settingsSaves++;
          this.stats.largestSettingsBytes = Math.max(this.stats.largestSettingsBytes, size);
          // Excel desktop refuses the whole save; the document keeps what it had.
          if (size <= this.settingsLimitBytes) this.savedSettings = structuredClone(this.settings);
          else this.stats.failedSettingsSaves++;
          return size;
        });
        setTimeout(
          () =>
            callback?.(
              bytes <= this.settingsLimitBytes
                ? { status: "succeeded" }
                : { status: "failed", error: { code: 5001, message: SETTINGS_TOO_LARGE_MESSAGE } }
            ),
          0
        );
      },
    });
    return {
      AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
      context: {
        document: { settings },
        ...(this.excelApiVersion === undefined
          ? {}
          : {
              requirements: {
                isSetSupported: (name: string, version?: string) =>
                  name === "ExcelApi" && this.supportsExcelApi(version ?? "1.1"),
              },
            }),
      },
      // As Office.js: the callback (if any) is called once ready, and the promise resolves too.
      onReady: async (callback?: (info: { host: string; platform: string }) => unknown) => {
        const info = { host: "Excel", platform: "OfficeOnline" };
        await callback?.(info);
        return info;
      },
      HostType: { Excel: "Excel" },
    };
  }

  private requestContext(queue: Operation[]): OfficeMockObject {
    return this.timed(() => this.createRequestContext(queue));
  }

  private createRequestContext(queue: Operation[]): OfficeMockObject {
    const makeRange = (sheet: string, block: CellBlock) => this.rangeProxy(queue, sheet, block);
    const worksheet = (key: string, nullable = false) => {
      const name = this.sheetNamed(key);
      return this.timed(() => {
        const sheet = new OfficeMockObject({
          name,
          id: this.sheetIds.get(name) ?? "",
          visibility: this.visibility.get(name) ?? "Visible",
          getRange: (address: string) => {
            // Checked at sync: a sheet added earlier in the same batch exists by then.
            queue.push({ kind: "requireSheet", name });
            return makeRange(name, wholeLines(address) ?? parseAddress(address).block);
          },
          getUsedRange: (valuesOnly?: boolean) => {
            const block = this.usedBlock(name, valuesOnly === true);
            if (!block) {
              queue.push({ kind: "fail", code: "ItemNotFound", message: `${name} is empty` });
            }
            return makeRange(name, block ?? { top: 0, left: 0, rowCount: 1, columnCount: 1 });
          },
          getUsedRangeOrNullObject: (valuesOnly?: boolean) => {
            const block = this.usedBlock(name, valuesOnly === true);
            const range = makeRange(
              name,
              block ?? { top: 0, left: 0, rowCount: 1, columnCount: 1 }
            );
            Reflect.set(range, "isNullObject", block === undefined);
            return range;
          },
        });
        let isNull: boolean | undefined = nullable ? undefined : false;
        if (nullable) {
          queue.push({
            kind: "lookup",
            target: sheet,
            fill: () => {
              isNull = !this.sheets.has(name);
            },
          });
        }
        return new Proxy(sheet, {
          get: (object, property) => {
            if (property === "isNullObject") {
              if (isNull === undefined)
                throw new Error(`isNullObject of sheet ${name}: sync first`);
              return isNull;
            }
            const value = Reflect.get(object, property, object);
            return typeof value === "function" ? value.bind(object) : value;
          },
          set: (object, property, value) => {
            if (property === "visibility") {
              queue.push({ kind: "visibility", name, visibility: String(value) });
              return true;
            }
            return Reflect.set(object, property, value);
          },
        });
      });
    };
    return new OfficeMockObject({
      workbook: {
        getSelectedRange: () => {
          const { sheet, block } = parseAnyAddress(this.selection);
          return makeRange(sheet, block);
        },
        worksheets: {
          getItem: (name: string) => worksheet(name),
          getItemOrNullObject: (name: string) => worksheet(name, true),
          add: (name: string) => {
            queue.push({ kind: "addSheet", name });
            return worksheet(name);
          },
        },
        names: {
          add: (name: string, reference: Excel.Range) => {
            const { sheet, block } = parseAddress(
              (reference as unknown as { _address: string })._address
            );
            queue.push({ kind: "name", name, target: { sheet, block } });
          },
          getItemOrNullObject: (name: string) => this.namedItem(queue, name),
          getItem: (name: string) => this.namedItem(queue, name),
        },
        application: {
          calculate: (calculationType: string) => {
            queue.push({ kind: "calculate", calculationType });
          },
        },
      },
      sync: () => this.sync(queue),
    });
  }

  /**
   * A range: an `OfficeMockObject` (load/sync discipline) wrapped so that writes are queued
   * instead of applied, and reads of unloaded or unsynced properties throw instead of returning
   * the mock's error text.
   */
  private rangeProxy(queue: Operation[], sheet: string, block: CellBlock): Excel.Range {
    return this.timed(() => this.createRangeProxy(queue, sheet, block));
  }

  /** Runs mock work, adding its time to `stats.mockMs` (benchmarks subtract it). */
  private timed<T>(work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.stats.mockMs += performance.now() - started;
    }
  }

  private createRangeProxy(queue: Operation[], sheet: string, block: CellBlock): Excel.Range {
    const target = new OfficeMockObject({
      address: `${quoteSheet(sheet)}!${lineAddress(block) ?? blockAddress(block)}`,
      rowCount: block.rowCount,
      columnCount: block.columnCount,
      // Filled in at sync time by `fillLoaded` (`null` would be taken for a nested object).
      values: undefined,
      formulas: undefined,
      numberFormat: undefined,
      text: undefined,
      worksheet: {
        name: sheet,
        id: this.sheetIds.get(sheet) ?? "",
        getUsedRangeOrNullObject: (valuesOnly?: boolean) => {
          const used = this.usedBlock(sheet, valuesOnly === true);
          const range = this.rangeProxy(
            queue,
            sheet,
            used ?? { top: 0, left: 0, rowCount: 1, columnCount: 1 }
          );
          Reflect.set(range, "isNullObject", used === undefined);
          return range;
        },
      },
    });
    return new Proxy(target, {
      get: (object, property, receiver) => {
        if (property === "load") {
          return (argument: string | string[]) =>
            this.timed(() => {
              const properties = loadList(argument);
              object.load(properties);
              queue.push({ kind: "load", target: object, sheet, block, properties });
              return receiver;
            });
        }
        if (property === "getSpillingToRangeOrNullObject") {
          return () => {
            const spill =
              block.rowCount === 1 && block.columnCount === 1
                ? this.spills.get(`${sheet}!${blockAddress(block)}`)
                : undefined;
            const range = this.rangeProxy(queue, sheet, spill ?? block);
            Reflect.set(range, "isNullObject", spill === undefined);
            return range;
          };
        }
        if (property === "_address") return `${quoteSheet(sheet)}!${blockAddress(block)}`;
        if (property === "getVisibleView") {
          return () => this.visibleView(queue, sheet, block);
        }
        // Office.js `Range.calculate()`: "Calculates a range of cells on a worksheet." (ExcelApi
        // 1.6): at sync, the formulas of the block are calculated again (their calls made anew).
        if (property === "calculate") {
          return () => {
            queue.push({ kind: "calculateRange", sheet, block });
          };
        }
        if (property === "insert") {
          return (shift: string) => {
            queue.push({ kind: "insert", sheet, block, shift });
          };
        }
        if (property === "delete") {
          return (shift: string) => {
            queue.push({ kind: "delete", sheet, block, shift });
          };
        }
        if (property === "getCell") {
          return (row: number, column: number) =>
            this.rangeProxy(queue, sheet, {
              top: block.top + row,
              left: block.left + column,
              rowCount: 1,
              columnCount: 1,
            });
        }
        const value = Reflect.get(object, property, object);
        if (typeof value === "function") return value.bind(object);
        if (typeof value === "string" && MOCK_ERRORS.includes(value)) {
          throw new Error(`${String(property)} of ${blockAddress(block)}: ${value}`);
        }
        return value;
      },
      set: (object, property, data) => {
        if (typeof property === "string" && WRITABLE.includes(property)) {
          this.timed(() => checkShape(data, block, property));
          queue.push({ kind: "write", sheet, block, property: property as WritableProperty, data });
          return true;
        }
        return Reflect.set(object, property, data);
      },
    }) as unknown as Excel.Range;
  }

  /**
   * `names.getItemOrNullObject(name)`: `isNullObject`, `getRange()` (whose `address` is loaded
   * at sync, where the name refers to then) and `delete()`.
   */
  private namedItem(queue: Operation[], name: string): OfficeMockObject {
    const item = new OfficeMockObject({});
    const range = new OfficeMockObject({ address: undefined });
    const at = () => this.names.get(name);
    // As in Office, `isNullObject` is known after the next sync, without a load.
    let isNull: boolean | undefined;
    queue.push({
      kind: "lookup",
      target: item,
      fill: () => {
        isNull = !this.names.has(name);
      },
    });
    return new Proxy(item, {
      get: (object, property) => {
        if (property === "isNullObject") {
          if (isNull === undefined) throw new Error(`isNullObject of name ${name}: sync first`);
          return isNull;
        }
        if (property === "delete") {
          return () => queue.push({ kind: "name", name, target: undefined });
        }
        if (property === "getRange") {
          return () =>
            new Proxy(range, {
              get: (r, p, rr) => {
                if (p === "load") {
                  return (argument: string | string[]) => {
                    r.load(loadList(argument));
                    queue.push({
                      kind: "lookup",
                      target: r,
                      fill: () => {
                        const target = at();
                        if (!target)
                          throw new MockOfficeError("InvalidReference", `${name} refers to #REF!`);
                        fillLoaded(
                          r,
                          "address",
                          `${quoteSheet(target.sheet)}!${blockAddress(target.block)}`
                        );
                      },
                    });
                    return rr;
                  };
                }
                const value = Reflect.get(r, p, r);
                if (typeof value === "function") return value.bind(r);
                if (typeof value === "string" && MOCK_ERRORS.includes(value)) {
                  throw new Error(`${String(p)} of name ${name}: ${value}`);
                }
                return value;
              },
            });
        }
        const value = Reflect.get(object, property, object);
        if (typeof value === "function") return value.bind(object);
        if (typeof value === "string" && MOCK_ERRORS.includes(value)) {
          throw new Error(`${String(property)} of name ${name}: ${value}`);
        }
        return value;
      },
    });
  }

  /** `Range.getVisibleView()`: only `cellAddresses` is modelled (load it, then sync). */
  private visibleView(queue: Operation[], sheet: string, block: CellBlock): OfficeMockObject {
    const view = new OfficeMockObject({ cellAddresses: undefined });
    return new Proxy(view, {
      get: (object, property, receiver) => {
        if (property === "load") {
          return (argument: string | string[]) => {
            const properties = loadList(argument);
            object.load(properties);
            queue.push({ kind: "load", target: object, sheet, block, properties });
            return receiver;
          };
        }
        const value = Reflect.get(object, property, object);
        if (typeof value === "function") return value.bind(object);
        if (typeof value === "string" && MOCK_ERRORS.includes(value)) {
          throw new Error(`${String(property)} of the visible view: ${value}`);
        }
        return value;
      },
    });
  }

  private async sync(queue: Operation[]): Promise<void> {
    this.beforeSync?.({
      syncNumber: this.stats.syncs + 1,
      writes: queue.flatMap((op) =>
        op.kind === "write" ? [`${quoteSheet(op.sheet)}!${blockAddress(op.block)}`] : []
      ),
    });
    const started = performance.now();
    this.stats.syncs++;
    const operations = queue.splice(0, queue.length);
    const requestBytes = operations.reduce(
      (sum, op) => sum + (op.kind === "write" ? payloadBytes(op.data) : 64),
      0
    );
    this.stats.maxRequestBytes = Math.max(this.stats.maxRequestBytes, requestBytes);
    if (requestBytes > this.payloadLimitBytes) {
      throw new MockOfficeError(
        "RequestPayloadSizeLimitExceeded",
        `Request of ${requestBytes} bytes`
      );
    }
    let wrote = false;
    const wroteTo = new Set<string>();
    let read = false;
    let responseBytes = 0;
    const loaded: OfficeMockObject[] = [];
    for (const op of operations) {
      if (op.kind === "fail") throw new MockOfficeError(op.code, op.message);
      if (op.kind === "requireSheet") {
        if (!this.sheets.has(op.name)) {
          throw new MockOfficeError("ItemNotFound", `No sheet named ${op.name}`);
        }
        continue;
      }
      if (op.kind === "addSheet") {
        wrote = true;
        wroteTo.add(op.name);
        this.addSheet(op.name);
        continue;
      }
      if (op.kind === "visibility") {
        wrote = true;
        wroteTo.add(op.name);
        this.visibility.set(op.name, op.visibility);
        continue;
      }
      if (op.kind === "write") {
        wrote = true;
        wroteTo.add(op.sheet);
        this.apply(op.sheet, op.block, op.property, op.data);
        this.onCellsChanged?.({ sheet: op.sheet, block: op.block });
      } else if (op.kind === "lookup") {
        read = true;
        op.fill();
        loaded.push(op.target);
      } else if (op.kind === "name") {
        wrote = true;
        if (op.target)
          this.names.set(op.name, { sheet: op.target.sheet, block: { ...op.target.block } });
        else this.names.delete(op.name);
      } else if (op.kind === "calculateRange") {
        if (!this.supportsExcelApi("1.6")) {
          throw new MockOfficeError("ApiNotFound", "Range.calculate needs ExcelApi 1.6");
        }
        this.rangeCalculations.push(`${op.sheet}!${blockAddress(op.block)}`);
        // The formulas there are calculated afresh (the playground's engine calls them again).
        const range = { sheet: op.sheet, block: op.block };
        if (this.onRecalculate) this.onRecalculate(range);
        else this.onCellsChanged?.(range);
      } else if (op.kind === "delete") {
        // Whole columns or rows only (what the add-in deletes): the cells beyond move back.
        wrote = true;
        if (op.shift === "Left") this.deleteColumns(op.sheet, op.block.left, op.block.columnCount);
        else this.deleteRows(op.sheet, op.block.top, op.block.rowCount);
      } else if (op.kind === "insert") {
        wrote = true;
        if (op.shift === "Right") this.insertColumns(op.sheet, op.block.left, op.block.columnCount);
        else this.insertRows(op.sheet, op.block.top, op.block.rowCount);
      } else if (op.kind === "load") {
        read = true;
        for (const property of op.properties) {
          if (!["values", "formulas", "numberFormat", "text", "cellAddresses"].includes(property)) {
            continue;
          }
          const data = this.read(op.sheet, op.block, property);
          responseBytes += payloadBytes(data);
          fillLoaded(op.target, property, data);
        }
        loaded.push(op.target);
      } else {
        this.calculations.push(op.calculationType);
      }
    }
    this.stats.maxResponseBytes = Math.max(this.stats.maxResponseBytes, responseBytes);
    if (responseBytes > this.payloadLimitBytes) {
      throw new MockOfficeError(
        "ResponsePayloadSizeLimitExceeded",
        `Response of ${responseBytes} bytes`
      );
    }
    const onlyHidden =
      wroteTo.size > 0 &&
      [...wroteTo].every((sheet) => this.visibility.get(sheet) === "VeryHidden");
    if (wrote && onlyHidden) this.stats.hiddenWriteSyncs++;
    else if (wrote) this.stats.writeSyncs++;
    if (read) this.stats.readSyncs++;
    // office-addin-mock's sync does its work before its first await; timed without the awaits,
    // which would let other tasks' time into the mock's share.
    const settled = loaded.map((target) => target.sync());
    this.stats.mockMs += performance.now() - started;
    await Promise.all(settled);
    this.afterSync?.(this.stats.syncs);
  }

  /** True when the modelled host has the ExcelApi requirement set `version`. */
  private supportsExcelApi(version: string): boolean {
    if (this.excelApiVersion === undefined) return true;
    const [major, minor] = version.split(".").map(Number);
    const [hasMajor, hasMinor] = this.excelApiVersion.split(".").map(Number);
    return hasMajor > major || (hasMajor === major && (hasMinor ?? 0) >= (minor ?? 0));
  }

  private apply(sheet: string, block: CellBlock, property: WritableProperty, data: unknown): void {
    for (let r = 0; r < block.rowCount; r++) {
      for (let c = 0; c < block.columnCount; c++) {
        const item = Array.isArray(data) ? (data as unknown[][])[r][c] : data;
        if (item === null || item === undefined) continue; // null leaves the cell as it is
        const row = block.top + r;
        const column = block.left + c;
        if (property === "numberFormat") {
          this.cellAt(sheet, row, column, true).numberFormat = String(item);
        } else {
          this.writeValue(sheet, row, column, item as MockCellValue);
        }
      }
    }
  }

  /** Excel's parsing of written input, as documented on `Range.values`. */
  private writeValue(sheet: string, row: number, column: number, item: MockCellValue): void {
    const anchor = `${sheet}!${columnName(column)}${row + 1}`;
    const spill = this.spills.get(anchor);
    if (spill) {
      // The formula goes, and with it every value it spilled.
      this.spills.delete(anchor);
      for (let r = 0; r < spill.rowCount; r++) {
        for (let c = 0; c < spill.columnCount; c++) {
          const spilled = this.sheets
            .get(sheet)
            ?.get(spill.top + r)
            ?.get(spill.left + c);
          if (spilled) spilled.value = "";
        }
      }
    }
    const cell = this.cellAt(sheet, row, column, true);
    delete cell.formula;
    if (typeof item !== "string" || cell.numberFormat === "@") {
      cell.value = item;
    } else if (item.startsWith("'")) {
      cell.value = item.slice(1);
    } else if (/^[=+\-@]./s.test(item) && !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(item)) {
      cell.formula = item.startsWith("=") ? item : `=${item}`;
      cell.value = "#NAME?";
    } else if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(item.trim())) {
      cell.value = Number(item);
    } else if (/^(true|false)$/i.test(item)) {
      cell.value = item.toLowerCase() === "true";
    } else {
      cell.value = item;
    }
  }

  private read(sheet: string, block: CellBlock, property: string): unknown[][] {
    if (property === "cellAddresses") {
      // A RangeView's addresses: the visible rows only.
      const hidden = this.hidden.get(sheet);
      const visible: string[][] = [];
      for (let r = 0; r < block.rowCount; r++) {
        if (hidden?.has(block.top + r)) continue;
        visible.push(
          Array.from(
            { length: block.columnCount },
            (_, c) => `${quoteSheet(sheet)}!${columnName(block.left + c)}${block.top + r + 1}`
          )
        );
      }
      return visible;
    }
    const rows: unknown[][] = [];
    for (let r = 0; r < block.rowCount; r++) {
      const cells = this.sheets.get(sheet)?.get(block.top + r);
      const row: unknown[] = [];
      for (let c = 0; c < block.columnCount; c++) {
        const cell = cells?.get(block.left + c);
        if (property === "numberFormat") row.push(cell?.numberFormat ?? "General");
        else if (property === "formulas") row.push(cell?.formula ?? cell?.value ?? "");
        else if (property === "text") row.push(String(cell?.value ?? ""));
        else row.push(cell?.value ?? "");
      }
      rows.push(row);
    }
    return rows;
  }

  private cellAt(sheet: string, row: number, column: number, create: boolean): MockCell {
    let rows = this.sheets.get(sheet);
    if (!rows) {
      if (!create) return { value: "", numberFormat: "General" };
      rows = new Map();
      this.sheets.set(sheet, rows);
    }
    let cells = rows.get(row);
    if (!cells) {
      if (!create) return { value: "", numberFormat: "General" };
      cells = new Map();
      rows.set(row, cells);
    }
    let cell = cells.get(column);
    if (!cell) {
      cell = { value: "", numberFormat: "General" };
      if (create) cells.set(column, cell);
    }
    return cell;
  }
}
