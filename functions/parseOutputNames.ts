import { isBlankCell } from "./isBlankCell.js";

/**
 * Reads the `output` argument of `SPELL.RUN` (or `outputs` of `SPELL.BULK`): one name, several
 * names separated by commas, or a range of names. Empty cells are skipped.
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
 */
export function parseOutputNames(value: unknown): string[] | undefined {
  const cells = Array.isArray(value)
    ? value.flatMap((row: unknown) => (Array.isArray(row) ? row : [row]))
    : [value];
  const names = cells
    .filter((cell) => !isBlankCell(cell))
    .flatMap((cell) => String(cell).split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return names.length > 0 ? names : undefined;
}
