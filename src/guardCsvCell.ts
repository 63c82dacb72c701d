/** Cells a spreadsheet program would read as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Makes a CSV cell (or a cell of tab-separated text for the clipboard) safe to open or paste in
 * a spreadsheet: text that begins with `=`, `+`, `-`, `@`, tab
 * or carriage return gets a leading `'`, so Excel, LibreOffice and Google Sheets show it as text
 * instead of running it as a formula. Other text is returned unchanged.
 *
 * ## Example
 * ```ts
 * guardCsvCell("=HYPERLINK(\"http://evil\")"); // "'=HYPERLINK(\"http://evil\")"
 * guardCsvCell("-3"); // "'-3" (a spreadsheet shows the text -3)
 * guardCsvCell("plain"); // "plain"
 * ```
 * @param text the cell text
 * @return the text, guarded when needed
 */
export function guardCsvCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
