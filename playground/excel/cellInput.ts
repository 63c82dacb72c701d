/** What a person typed into a cell, as Excel's formula bar and the cell's editor show it. */
import type { MockCell } from "./mockWorkbookTypes.js";

/**
 * A cell's input: its formula, else its value as text, after the apostrophe it was typed with
 * (Microsoft, "Display or hide the apostrophe": the cell shows text typed as `'=1+2` without the
 * apostrophe, the formula bar and Edit mode with it). Written back unchanged, it makes the same
 * cell again: such a text is never read as a formula.
 *
 * @example
 * ```ts
 * cellInput({ value: "=1+2", quotePrefix: true, numberFormat: "General" }); // "'=1+2"
 * cellInput({ value: 3, formula: "=1+2", numberFormat: "General" }); // "=1+2"
 * ```
 */
export function cellInput(cell: MockCell): string {
  return cell.formula ?? `${cell.quotePrefix ? "'" : ""}${String(cell.value)}`;
}
