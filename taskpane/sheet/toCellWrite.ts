import { toCellValue } from "../../functions/toCellValue.js";

/** What a cell can hold through `Range.values`. */
export type CellScalar = string | number | boolean;

/**
 * One cell as the task pane writes it: the value and the number format that makes Excel keep it.
 *
 * ## Example
 * ```ts
 * const cell: CellWrite = { value: "=1+1", numberFormat: "@" }; // stays the text "=1+1"
 * ```
 */
export interface CellWrite {
  value: CellScalar;
  numberFormat: string;
}

/** Number format "Text": Excel stores what is written verbatim, never parsing it. */
export const TEXT_FORMAT = "@";

/** Number format "General", for numbers, booleans and empty cells. */
export const GENERAL_FORMAT = "General";

/**
 * Turns one spell output into what the task pane writes to its cell.
 *
 * The value is the custom functions' `toCellValue` (objects and arrays as JSON text, over-long
 * text cut with a marker). The number format is the task pane's own concern: Excel parses a
 * string written through `Range.values` like typed input, so a leading `=`, `+`, `-` or `@` makes
 * a formula (documented on `Excel.Range.values`), "00123" becomes 123 and "1/2" a date. Office
 * documents no escape on `values` itself, so every text output goes into a cell whose number
 * format is Text (`"@"`, set in the same batch *before* the value), which Excel stores verbatim.
 * Numbers and booleans get "General" so that an earlier Text format does not turn them into text.
 *
 * ## Example
 * ```ts
 * toCellWrite('=HYPERLINK("x")'); // { value: '=HYPERLINK("x")', numberFormat: "@" }
 * toCellWrite({ a: 1 });          // { value: '{"a":1}', numberFormat: "@" }
 * toCellWrite(0.93);              // { value: 0.93, numberFormat: "General" }
 * ```
 * @param value An output value as the service sent it.
 * @return The cell's value and number format.
 */
export function toCellWrite(value: unknown): CellWrite {
  const cell = toCellValue(value);
  return {
    value: cell,
    numberFormat: typeof cell === "string" && cell !== "" ? TEXT_FORMAT : GENERAL_FORMAT,
  };
}
