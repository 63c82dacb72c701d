/** Cells Excel would read as a formula when typed or pasted. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Makes one cell of tab-separated text for the clipboard safe to paste into Excel: text that
 * begins with `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'`. Excel reads a pasted
 * cell as if it were typed, so the `'` is taken as its text prefix and the cell shows exactly
 * the original text (`-2` stays the text `-2`, `=1+1` is not computed). (The command line's CSV
 * files follow their own rule, `cli/table/guardCsvCell.ts`: a file opened in a spreadsheet shows
 * the `'`, so numbers and input cells are left alone there.)
 *
 * ## Example
 * ```ts
 * guardPastedCell("=HYPERLINK(\"http://evil\")"); // "'=HYPERLINK(\"http://evil\")"
 * guardPastedCell("plain"); // "plain"
 * ```
 * @param text the cell text
 * @return the text, guarded when needed
 */
export function guardPastedCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
