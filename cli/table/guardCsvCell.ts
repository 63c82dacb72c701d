/** Cells a spreadsheet program would read as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A plain decimal number, as a spreadsheet reads it into a number cell: an optional sign, digits
 * with an optional fraction, an optional exponent (`-3.5`, `+44`, `1e-3`, `.5`). Nothing else:
 * no spaces, no operators, no thousands separators.
 */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Makes a CSV cell (or a cell of tab-separated text for the clipboard) safe to open or paste in
 * a spreadsheet: text that begins with `=`, `+`, `-`, `@`, tab or carriage return gets a leading
 * `'`, so Excel, LibreOffice and Google Sheets show it as text instead of running it as a
 * formula. A cell that is a plain number (`-3.5`, `+44`, `-1e3`) is a number, not a formula, and
 * stays as it is; text that only starts like one (`+44 20 7946 0000`, `-1+2`, `-A1`) is guarded,
 * since a spreadsheet would evaluate it. Other text is returned unchanged.
 *
 * This is the command line's policy for the cells that come from a service (a spell's outputs,
 * its error text, output names); the user's own input cells are never passed through it.
 *
 * ## Example
 * ```ts
 * guardCsvCell("=HYPERLINK(\"http://evil\")"); // "'=HYPERLINK(\"http://evil\")"
 * guardCsvCell("-3.5"); // "-3.5" (a number)
 * guardCsvCell("+44 20 7946 0000"); // "'+44 20 7946 0000" (a spreadsheet would compute it)
 * guardCsvCell("plain"); // "plain"
 * ```
 * @param text the cell text
 * @return the text, guarded when needed
 */
export function guardCsvCell(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}
