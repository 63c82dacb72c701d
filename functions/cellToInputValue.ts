import { isBlankCell } from "./isBlankCell.js";
import { plainCellValue } from "./plainCellValue.js";

/**
 * Turns one cell, or a range given as a value, into a spell input value. A single cell gives its
 * value; a one-row or one-column range gives a list; a larger range gives a list of rows. Empty
 * cells become `""` (Excel has no null to offer, and text spells handle `""` best); data types
 * become their plain value (`plainCellValue`: an entity its display text). A `0` stays `0`: on
 * builds that pass empty cells as `0` it may have been an empty cell, but it may as well be a typed
 * zero, and only the user can tell (`A2&""` sends an empty cell as `""` on every build).
 *
 * ## Example
 * ```ts
 * cellToInputValue([["a"], ["b"]]); // ["a", "b"]
 * cellToInputValue(42);             // 42
 * ```
 *
 * @param value A scalar or a 2-D array as Excel passes it.
 * @return The JSON value to send.
 * @throws `#VALUE!` for a data type that has no plain value (an image, an error value...).
 */
export function cellToInputValue(value: unknown): unknown {
  if (!Array.isArray(value)) {
    const plain = plainCellValue(value);
    return isBlankCell(plain) ? "" : plain;
  }
  const rows = value.map((row) => (Array.isArray(row) ? row : [row]));
  if (rows.length === 1 && rows[0].length === 1) return cellToInputValue(rows[0][0]);
  if (rows.length === 1) return rows[0].map((cell) => cellToInputValue(cell));
  if (rows.every((row) => row.length === 1)) return rows.map((row) => cellToInputValue(row[0]));
  return rows.map((row) => row.map((cell) => cellToInputValue(cell)));
}
