/**
 * Whether a cell's value is empty for the pane: nothing, or only spaces.
 *
 * ## Example
 * ```ts
 * isEmptyCell("  "); // true
 * isEmptyCell(0); // false
 * ```
 * @param cell the cell's value
 * @return true when the cell holds nothing but spaces
 */
export function isEmptyCell(cell: unknown): boolean {
  return cell === undefined || cell === null || String(cell).trim() === "";
}
