/**
 * Excel's limit of characters in one cell.
 *
 * ## Example
 * ```ts
 * const fits = text.length <= EXCEL_CELL_CHARACTER_LIMIT;
 * ```
 */
export const EXCEL_CELL_CHARACTER_LIMIT = 32_767;

/**
 * Turns one output value into what a cell can hold: numbers stay numbers, booleans stay booleans,
 * `null` becomes an empty cell, objects and arrays become JSON text, and text longer than a cell
 * holds is cut with a visible marker saying how long it was (so nobody mistakes it for the whole).
 *
 * ## Example
 * ```ts
 * toCellValue({ a: 1 });  // '{"a":1}'
 * toCellValue(null);      // ""
 * toCellValue("x".repeat(40_000)).endsWith("… [cut; 40,000 characters in all]"); // true
 * ```
 *
 * @param value One output value from the service.
 * @return A cell value.
 */
export function toCellValue(value: unknown): string | number | boolean {
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "boolean") return value;
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > EXCEL_CELL_CHARACTER_LIMIT ? cut(text) : text;
}

function cut(text: string): string {
  const marker = `… [cut; ${text.length.toLocaleString("en-US")} characters in all]`;
  return text.slice(0, EXCEL_CELL_CHARACTER_LIMIT - marker.length) + marker;
}
