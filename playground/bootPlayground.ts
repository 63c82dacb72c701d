/**
 * Puts the playground together: the workbook model installed as `Excel` and `Office`, the
 * custom-functions runtime installed as `CustomFunctions`, the add-in's functions loaded into it,
 * the formula engine and the grid. The page (playground.ts) and the Chromium specs share it, so
 * what the specs check is what a person sees.
 */
import { FormulaEngine } from "./formulas/formulaEngine.js";
import { CustomFunctionsRuntime } from "./functions/customFunctionsRuntime.js";
import type { CustomFunctionMetadata } from "./functions/customFunctionsRuntime.js";
import { GridWorkbook } from "./grid/gridWorkbook.js";
import type { GridSheet } from "./grid/gridWorkbook.js";
import { BLOCK_COLUMN_LIMIT, BLOCK_LIMIT, BLOCK_ROWS } from "./grid/sheetBlock.js";
import { MockWorkbook } from "./excel/mockWorkbook.js";
import type { MockCellValue } from "./excel/mockWorkbook.js";
import type { WorkbookSnapshot } from "./excel/workbookSnapshot.js";
import { watchColumnHeaders } from "./grid/columnHeaderPicks.js";

/** What the playground is built from. */
export interface PlaygroundOptions {
  /** Where the grid goes. */
  gridElement: HTMLElement;
  /** The sheets' cells (rows from A1), in tab order (a new document's). */
  sheets: Record<string, MockCellValue[][]>;
  /**
   * A saved document to open instead of `sheets` (its cells, sheets and saved document
   * settings, as after a reload); its visible sheets are the grid's tabs.
   */
  snapshot?: WorkbookSnapshot;
  /** The functions of functions.json. */
  metadata: readonly CustomFunctionMetadata[];
  /** functions.json's `allowErrorForDataTypeAny` (error values reach `any` parameters). */
  allowErrorForDataTypeAny?: boolean;
  /**
   * Loads the add-in's custom functions once `CustomFunctions` is in place: in the page, the
   * built functions.js, whose last lines call `CustomFunctions.associate`.
   */
  loadFunctions: () => Promise<void>;
  /** Grid size per sheet. @default 16 columns, 200 rows (more when a sheet holds more, up to 64 × 2,000) */
  gridSize?: { columns: number; rows: number };
  /**
   * Widths (px) of a sheet's first columns, by sheet name; other columns and sheets have the
   * grid's default width. @default none
   */
  columnWidths?: Readonly<Record<string, readonly number[]>>;
  /** The host's ExcelApi version (see `MockWorkbookOptions.excelApiVersion`). */
  excelApiVersion?: string;
}

/** The parts of a running playground. */
export interface Playground {
  workbook: MockWorkbook;
  runtime: CustomFunctionsRuntime;
  engine: FormulaEngine;
  grid: GridWorkbook;
  /** Cancels every call and takes the globals away. */
  stop(): void;
}

/**
 * Builds a playground.
 *
 * ## Example
 * ```ts
 * const playground = await bootPlayground({
 *   gridElement: document.getElementById("grid")!,
 *   sheets: demoSheets(),
 *   metadata: (await (await fetch("functions.json")).json()).functions,
 *   loadFunctions: () => loadScript("functions.js"),
 * });
 * ```
 */
export async function bootPlayground(options: PlaygroundOptions): Promise<Playground> {
  const workbook = options.snapshot
    ? MockWorkbook.fromSnapshot(options.snapshot, { excelApiVersion: options.excelApiVersion })
    : new MockWorkbook({ sheets: options.sheets, excelApiVersion: options.excelApiVersion });
  // The add-in's very hidden sheets (its records) are not tabs.
  const names = workbook
    .sheetNames()
    .filter((name) => workbook.sheetVisibility(name) === "Visible");
  workbook.select(`${names[0]}!A1`);
  const uninstallExcel = workbook.install();
  const runtime = new CustomFunctionsRuntime(
    options.metadata,
    "SPELL",
    options.allowErrorForDataTypeAny === true
  );
  const uninstallFunctions = runtime.install();
  await options.loadFunctions();
  const engine = new FormulaEngine(workbook, runtime);
  const stopEngine = engine.start();
  const size = options.gridSize ?? { columns: 16, rows: BLOCK_ROWS };
  const sheets: GridSheet[] = names.map((name) => {
    const used = workbook.usedBlock(name, false);
    // The block of the sheet the grid holds at first (the sheet itself is Excel's size).
    return {
      name,
      columns: Math.min(
        BLOCK_COLUMN_LIMIT,
        Math.max(size.columns, used ? used.left + used.columnCount + 2 : 0)
      ),
      rows: Math.min(BLOCK_LIMIT, Math.max(size.rows, workbook.lastRow(name) + 21)),
      columnWidths: options.columnWidths?.[name],
    };
  });
  const grid = await GridWorkbook.mount(
    options.gridElement,
    workbook,
    engine.displayChanges,
    sheets,
    (sheet, address) => engine.messageAt(sheet, address)
  );
  const stopHeaders = watchColumnHeaders(options.gridElement);
  return {
    workbook,
    runtime,
    engine,
    grid,
    stop: () => {
      stopHeaders();
      stopEngine();
      uninstallFunctions();
      uninstallExcel();
    },
  };
}
