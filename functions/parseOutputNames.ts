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
  const cells = Array.isArray(value)
    ? value.flatMap((row: unknown) => (Array.isArray(row) ? row : [row]))
    : [value];
  const names = cells
    .map((cell) => plainCellValue(cell))
    .filter((cell) => !isBlankName(cell))
    .flatMap((cell) => String(cell).split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return names.length > 0 ? names : undefined;
}
