/**
 * The values of the playground's formula engine as they cross its borders: cells read by the
 * parser, arguments given to custom functions, calls' values given back to the parser, and a
 * formula's result written as cells (an error's code, an array as it spills).
 */
import { FormulaError } from "fast-formula-parser";
import type { Subscription } from "rxjs";
import type { MockCellValue } from "../excel/mockWorkbook.js";
import { CustomFunctionError } from "../functions/customFunctionsRuntime.js";

/** A call's value before it arrives (the cell shows #BUSY!). */
export const PENDING = Symbol("pending");
const BUSY = "#BUSY!";

/** A call of a custom function made by one formula, at one place in it. */
export interface CallSite {
  key: string;
  value: unknown;
  subscription?: Subscription;
}

/** Cancels the calls from `from` on (their subscriptions end) and drops them. */
export function cancelCalls(calls: CallSite[], from: number): void {
  for (const site of calls.splice(from)) site.subscription?.unsubscribe();
}

/** The first line of a message, at most 200 characters (for a cell's tooltip). */
export function firstLine(text: string): string {
  return text.split("\n")[0].slice(0, 200);
}

/** The message of the first call that ended in the error a formula shows. */
export function errorMessage(shown: MockCellValue, calls: readonly CallSite[]): string | undefined {
  if (typeof shown !== "string" || !shown.startsWith("#")) return undefined;
  const failed = calls.find(
    (site) => site.value instanceof CustomFunctionError && site.value.code === shown
  );
  return failed ? (failed.value as CustomFunctionError).message : undefined;
}

/**
 * What the parser reads for a cell: empty cells are `null` (0 in arithmetic, "" in text), an
 * error's code (#BUSY! of a call still running included) the error, as formulas read it in Excel.
 */
export function fromModel(value: MockCellValue): unknown {
  if (value === "") return null;
  if (
    typeof value === "string" &&
    /^#(N\/A|VALUE!|REF!|DIV\/0!|NUM!|NAME\?|NULL!|CALC!|SPILL!|BUSY!)$/.test(value)
  ) {
    return new FormulaError(value);
  }
  return value;
}

/** What a custom function receives: empty cells as "", as Excel passes them. */
export function toFunctionArgument(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((row: unknown[]) => row.map(toFunctionArgument));
  if (value === null || value === undefined) return "";
  if (value instanceof FormulaError) return new CustomFunctionError(value.error);
  return value;
}

/** A call's value as the parser takes it. */
export function toParser(value: unknown): unknown {
  if (value === PENDING) return new FormulaError(BUSY);
  if (value instanceof CustomFunctionError) return new FormulaError(value.code);
  if (isErrorLike(value)) return new FormulaError(value.code);
  if (Array.isArray(value)) {
    return value.map((row: unknown[]) =>
      row.map((item) => (isErrorLike(item) ? item.code : (item ?? "")))
    );
  }
  return value ?? "";
}

/** A formula's result as cells: an error's code, an array as it spills. */
export function toGrid(result: unknown): MockCellValue[][] {
  const one = (value: unknown): MockCellValue => {
    if (value instanceof FormulaError) return value.error;
    if (isErrorLike(value)) return value.code;
    if (value === null || value === undefined) return 0;
    if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") {
      return value;
    }
    return String(value);
  };
  if (Array.isArray(result) && result.length > 0 && Array.isArray(result[0])) {
    const rows = result as unknown[][];
    const width = Math.max(1, ...rows.map((row) => row.length));
    return rows.map((row) =>
      Array.from({ length: width }, (_, c) => (c < row.length ? one(row[c]) : "#N/A"))
    );
  }
  return [[one(result)]];
}

/** Whether a value is an error of a custom function or the parser (`{ code: "#…" }`). */
export function isErrorLike(value: unknown): value is { code: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { code?: unknown }).code === "string" &&
    (value as { code: string }).code.startsWith("#")
  );
}
