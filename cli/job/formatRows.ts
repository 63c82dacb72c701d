import { stringify } from "csv-stringify/sync";
import { failureReason, type RowStatus } from "spellrun";
import { guardCsvCell } from "../table/guardCsvCell.js";
import { headerOf, type OutputColumns } from "../table/OutputColumns.js";
import type { TableFormat } from "../table/tableFormat.js";

/**
 * One finished row, ready to be written: its input values and how its run ended.
 *
 * ## Example
 * ```ts
 * const row: FinishedRow = { values: { text: "hi" }, status: "success", outputs: { words: 1 } };
 * ```
 */
export interface FinishedRow {
  values: Record<string, unknown>;
  status: RowStatus;
  outputs: Record<string, unknown>;
}

/**
 * Options of `formatRows`.
 *
 * ## Example
 * ```ts
 * const options: FormatOptions = { format: "csv", csvGuard: true };
 * ```
 */
export interface FormatOptions {
  format: TableFormat;
  /**
   * Guard the cells that come from the service (outputs, `error`, `other_outputs`, output names
   * in the header) against formula injection (`guardCsvCell`). Input cells are never guarded.
   * @default true
   */
  csvGuard: boolean;
}

/**
 * Formats rows as the text appended to the output file. JSONL: one
 * `{"input":{…},"status":"…","outputs":{…}}` object per line, values as they are. CSV/TSV: one
 * line per row in the layout's columns (csv-stringify quoting; a cell holding a line feed or a
 * carriage return, even a lone one, is quoted so no reader splits the row there). The input
 * columns are written exactly as read; the service's cells (outputs, `error`, `other_outputs`)
 * are guarded against formula injection unless `csvGuard` is off.
 *
 * ## Example
 * ```ts
 * formatRows([{ values: { text: "=1+1" }, status: "success", outputs: { words: 1 } }],
 *   { inputColumns: ["text"], outputNames: ["words"] }, { format: "csv", csvGuard: true });
 * // "=1+1,success,1,,\n" (an input cell: the user's own)
 * ```
 * @param rows the finished rows
 * @param layout the CSV columns (unused for JSONL)
 * @param options format and guard
 * @return the text to append
 */
export function formatRows(
  rows: FinishedRow[],
  layout: OutputColumns,
  options: FormatOptions
): string {
  if (options.format === "jsonl") {
    let text = "";
    for (const row of rows) {
      text += `${JSON.stringify({ input: row.values, status: row.status, outputs: row.outputs })}\n`;
    }
    return text;
  }
  return csvLines(
    rows.map((row) => csvRecord(row, layout)),
    layout.inputColumns.length,
    options
  );
}

/**
 * The header line of a CSV/TSV output (empty for JSONL, which has none).
 *
 * ## Example
 * ```ts
 * formatHeader({ inputColumns: ["text"], outputNames: ["words"] }, { format: "csv", csvGuard: true });
 * // "text,status,words,error,other_outputs\n"
 * ```
 * @param layout the columns
 * @param options format and guard
 * @return the header line
 */
export function formatHeader(layout: OutputColumns, options: FormatOptions): string {
  return options.format === "jsonl"
    ? ""
    : csvLines([headerOf(layout)], layout.inputColumns.length, options);
}

/**
 * CSV/TSV text of records whose first `inputCells` cells are the user's (written as they are)
 * and the rest the service's (guarded when `csvGuard`).
 */
function csvLines(records: string[][], inputCells: number, options: FormatOptions): string {
  const guarded = options.csvGuard
    ? records.map((record) =>
        record.map((cell, index) => (index < inputCells ? cell : guardCsvCell(cell)))
      )
    : records;
  return stringify(guarded, {
    delimiter: options.format === "tsv" ? "\t" : ",",
    record_delimiter: "\n",
    // csv-stringify quotes a line feed but not a lone carriage return, which spreadsheets and
    // many readers take as the end of a row (the rest would start a new row, unguarded).
    quoted_match: /\r/,
  });
}

function csvRecord(row: FinishedRow, layout: OutputColumns): string[] {
  const inputs = layout.inputColumns.map((column) => cellText(own(row.values, column)));
  const success = row.status === "success";
  const outputs = layout.outputNames.map((name) =>
    success ? cellText(own(row.outputs, name)) : ""
  );
  let other = "";
  if (success) {
    const named = new Set(layout.outputNames);
    const rest = Object.entries(row.outputs).filter(([name]) => !named.has(name));
    if (rest.length > 0) other = JSON.stringify(Object.fromEntries(rest));
  }
  return [...inputs, row.status, ...outputs, success ? "" : reasonOf(row.outputs), other];
}

/** The spell's explanation (`failureReason`), else the outputs as JSON, else nothing. */
function reasonOf(outputs: Record<string, unknown>): string {
  const reason = failureReason(outputs);
  if (reason !== undefined) return reason;
  return Object.keys(outputs).length > 0 ? JSON.stringify(outputs) : "";
}

/**
 * A row's own value of a name, never one inherited: a JSONL row without a `__proto__` (or
 * `constructor`) key has an empty cell there, not `Object.prototype`'s.
 */
function own(values: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(values, name) ? values[name] : undefined;
}

function cellText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}
