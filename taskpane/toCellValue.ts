/** What a cell can hold through `Range.values`. */
export type CellScalar = string | number | boolean;

/**
 * One cell as the add-in writes it: the value and the number format that makes Excel keep it.
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

/** Excel's limit of characters in one cell. */
export const MAX_CELL_TEXT = 32_767;

/** Number format "Text": Excel stores what is written verbatim, never parsing it. */
export const TEXT_FORMAT = "@";

/** Number format "General", for numbers and booleans. */
export const GENERAL_FORMAT = "General";

/**
 * Turns one spell output into what is written to its cell.
 *
 * Excel parses a string written through `Range.values` like typed input: a leading `=`, `+`, `-`
 * or `@` makes a formula (documented on `Excel.Range.values`), "00123" becomes 123, "1/2" a date.
 * Office documents no escape on `values` itself, so every text output is written into a cell whose
 * number format is Text (`"@"`, set in the same batch *before* the value), which Excel stores
 * verbatim. Numbers and booleans get "General" so an earlier Text format does not turn them into
 * text. Objects and arrays become JSON text; text longer than `maxLength` is cut with a marker
 * saying how much was left out.
 *
 * ## Example
 * ```ts
 * toCellValue("=HYPERLINK(\"x\")"); // { value: "=HYPERLINK(\"x\")", numberFormat: "@" }
 * toCellValue({ a: 1 });            // { value: "{\"a\":1}", numberFormat: "@" }
 * toCellValue(0.93);                // { value: 0.93, numberFormat: "General" }
 * ```
 * @param value An output value as the service sent it.
 * @param maxLength Longest text written, marker included. @default 32767
 * @return The cell's value and number format.
 */
export function toCellValue(value: unknown, maxLength = MAX_CELL_TEXT): CellWrite {
  if (value === null || value === undefined) return { value: "", numberFormat: GENERAL_FORMAT };
  if (typeof value === "boolean") return { value, numberFormat: GENERAL_FORMAT };
  if (typeof value === "number" && Number.isFinite(value)) {
    return { value, numberFormat: GENERAL_FORMAT };
  }
  const text = typeof value === "string" ? value : describe(value);
  return { value: cutText(text, maxLength), numberFormat: TEXT_FORMAT };
}

/**
 * Cuts text to at most `maxLength` characters, ending with a marker that says how many were cut.
 *
 * ## Example
 * ```ts
 * cutText("x".repeat(100), 40); // "xxxxxxxxxx… [cut 90 characters]" (40 characters long)
 * ```
 */
export function cutText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  // The marker's own length depends on the count; two passes settle it.
  let kept = maxLength;
  for (let pass = 0; pass < 2; pass++) {
    kept = Math.max(0, maxLength - marker(text.length - kept).length);
  }
  return text.slice(0, kept) + marker(text.length - kept);
}

function marker(cut: number): string {
  return `… [cut ${cut} characters]`;
}

function describe(value: unknown): string {
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Circular structures cannot come from JSON, but a custom fetch might hand over anything.
    return String(value);
  }
}
