import { FormulaEngine } from "../../../playground/formulas/formulaEngine.js";
import { CustomFunctionsRuntime } from "../../../playground/functions/customFunctionsRuntime.js";
import { MockWorkbook } from "../../../playground/excel/mockWorkbook.js";
import type { MockCellValue } from "../../../playground/excel/mockWorkbook.js";

/** A sheet of data with the playground's formula engine over it, for formula specs. */
export interface FormulaSheet {
  /** What `formula` shows in `at` (default J1): one value, or `rows` × `columns` of its spill. */
  shown(
    formula: string,
    rows?: number,
    columns?: number,
    at?: string
  ): MockCellValue | MockCellValue[][];
  /** Why the formula last shown in `at` shows an error, as the cell's tooltip says. */
  message(at?: string): string | undefined;
  /** Writes one cell, as a person types it. */
  set(at: string, value: MockCellValue): void;
  /** The values of a range (`J1:L1`). */
  read(range: string): MockCellValue[][];
  /** Writes `rows` from A1 (the data). */
  fill(rows: MockCellValue[][]): void;
  /** Stops the engine. */
  stop(): void;
}

/**
 * A workbook whose Sheet1 holds `rows` from A1, its formulas evaluated as in the page.
 *
 * @example
 * ```ts
 * const sheet = formulaSheet([["Bananas", 25], ["Oranges", 38]]);
 * sheet.shown("=MATCH(38,B1:B2,0)"); // 2
 * ```
 */
export function formulaSheet(rows: MockCellValue[][]): FormulaSheet {
  const workbook = new MockWorkbook({ sheets: { Sheet1: rows } });
  const engine = new FormulaEngine(workbook, new CustomFunctionsRuntime([], "TEST"));
  const stop = engine.start();
  return {
    shown(formula, rowCount = 1, columnCount = 1, at = "J1") {
      workbook.setValues("Sheet1", at, [[formula]]);
      const column = /^[A-Z]+/.exec(at)?.[0] as string;
      const row = Number(at.slice(column.length));
      const last = String.fromCharCode(column.charCodeAt(0) + columnCount - 1);
      const values = workbook.values("Sheet1", `${at}:${last}${row + rowCount - 1}`);
      return rowCount === 1 && columnCount === 1 ? values[0][0] : values;
    },
    message: (at = "J1") => engine.messageAt("Sheet1", at),
    set: (at, value) => workbook.setValues("Sheet1", at, [[value]]),
    read: (range) => workbook.values("Sheet1", range),
    fill: (data) => workbook.setValues("Sheet1", "A1", data),
    stop,
  };
}
