import { shiftReferences } from "./shiftReferences.js";

/**
 * Moves a formula's relative row references by `rows`, as Excel re-bases a formula whose cell a
 * sort moved: `=A5*2` sorted from row 5 to row 2 reads `=A2*2`. Absolute rows (`A$5`) stay, text
 * in quotes stays, and function names with digits (`LOG10(`) are not references.
 *
 * ## Example
 * ```ts
 * shiftRowReferences('=SPELL.RUN("summarize", SPELL.INPUTS("text", A5))', -3);
 * // '=SPELL.RUN("summarize", SPELL.INPUTS("text", A2))'
 * ```
 *
 * @param formula The formula, with its `=`.
 * @param rows How far its cell moved (down is positive).
 * @return The formula as it reads in its new row (a reference moved above row 1 becomes #REF!).
 */
export function shiftRowReferences(formula: string, rows: number): string {
  // A sort moves a cell within its column: the copy/paste rule with no column shift.
  return shiftReferences(formula, rows, 0);
}
