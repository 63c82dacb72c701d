import { isBlankName } from "./isBlankName.js";
import { plainCellValue } from "./plainCellValue.js";

/**
 * Reads the `output` argument of `SPELL.RUN` (or `outputs` of `SPELL.BULK`): one name, several
 * names separated by commas, or a range of names. Empty cells are skipped, and so is `0`: some
 * Excel builds pass an empty cell as `0` (office-js #4702, #1951), and no output is named "0".
 * An entity cell gives its display text.
 *
 * ## Example
 * ```ts
 * parseOutputNames("summary, words");        // ["summary", "words"]
 * parseOutputNames([["summary"], ["words"]]); // ["summary", "words"]
 * parseOutputNames(null);                    // undefined: all outputs
 * ```
 *
 * @param value The argument as Excel passes it (omitted: `null` or `undefined`).
 * @return The names in order, or `undefined` when none were given.
 * @throws `#VALUE!` for a data type cell with no text (an image...).
 */
export function parseOutputNames(value: unknown): string[] | undefined {
  // Plain loops: this runs for every call of a filled-down column.
  const names: string[] = [];
  const add = (cell: unknown) => {
    const plain = plainCellValue(cell);
    if (isBlankName(plain)) return;
    for (const part of String(plain).split(",")) {
      const name = part.trim();
      if (name !== "") names.push(name);
    }
  };
  if (!Array.isArray(value)) add(value);
  else {
    for (const row of value as unknown[]) {
      if (!Array.isArray(row)) add(row);
      else for (const cell of row as unknown[]) add(cell);
    }
  }
  return names.length > 0 ? names : undefined;
}
