import type { CellScalar } from "../sheet/toCellWrite.js";

/** The error values Excel shows in a cell (and hands to add-ins as these strings). */
const EXCEL_ERROR_VALUES = new Set([
  "#NULL!",
  "#DIV/0!",
  "#VALUE!",
  "#REF!",
  "#NAME?",
  "#NUM!",
  "#N/A",
  "#GETTING_DATA",
  "#SPILL!",
  "#CALC!",
  "#FIELD!",
  "#BLOCKED!",
  "#CONNECT!",
  "#BUSY!",
  "#UNKNOWN!",
  "#PYTHON!",
  "#TIMEOUT!",
]);

/**
 * True for a cell value that is one of Excel's error values. Office.js hands error cells to an
 * add-in as their text (`"#N/A"`), so a cell whose text is exactly an error literal is treated as
 * that error (a typed `#N/A` text is rare, and sending it to a paid spell is never wanted).
 *
 * ## Example
 * ```ts
 * isExcelError("#DIV/0!"); // true
 * ```
 */
export function isExcelError(value: CellScalar): boolean {
  return typeof value === "string" && EXCEL_ERROR_VALUES.has(value.trim().toUpperCase());
}
