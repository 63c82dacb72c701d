import { isBlankCell } from "./isBlankCell.js";

/**
 * Turns one cell, or a range given as a value, into a spell input value. A single cell gives its
 * value; a one-row or one-column range gives a list; a larger range gives a list of rows. Empty
 * cells become `""` (Excel has no null to offer, and text spells handle `""` best).
 *
 * ## Example
 * ```ts
 * cellToInputValue([["a"], ["b"]]); // ["a", "b"]
 * cellToInputValue(42);             // 42
 * ```
 *
 * @param value A scalar or a 2-D array as Excel passes it.
 * @return The JSON value to send.
 */
export function cellToInputValue(value: unknown): unknown {
  if (!Array.isArray(value)) return isBlankCell(value) ? "" : value;
  const rows = value.map((row) => (Array.isArray(row) ? row : [row]));
  if (rows.length === 1 && rows[0].length === 1) return cellToInputValue(rows[0][0]);
  if (rows.length === 1) return rows[0].map((cell) => cellToInputValue(cell));
  if (rows.every((row) => row.length === 1)) return rows.map((row) => cellToInputValue(row[0]));
  return rows.map((row) => row.map((cell) => cellToInputValue(cell)));
}
