import { isBlankCell } from "./isBlankCell.js";

/**
 * Whether a cell where a name is expected (an input name, a table header, an output name) is
 * empty. Besides what `isBlankCell` accepts, the number `0` counts as empty here: some Excel
 * builds pass an empty cell as `0` (office-js issues #4702 and #1951), and `0` is never a name
 * anyone means, so reading it as a blank is safe where reading it as a value would not be.
 *
 * ## Example
 * ```ts
 * const names = header.filter((cell) => !isBlankName(cell));
 * ```
 *
 * @param value One cell's value.
 * @return True for an empty cell, and for `0`.
 */
export function isBlankName(value: unknown): boolean {
  return value === 0 || isBlankCell(value);
}
