/**
 * Moves a formula's relative references as Excel does when a formula is copied and pasted
 * elsewhere: `=A2*2` copied from C2 and pasted into D5 reads `=B5*2`. Absolute parts (`$A`,
 * `A$2`) stay, text in quotes stays, and function names with digits (`LOG10(`) are not
 * references. A reference moved off the sheet becomes #REF!, as in Excel.
 *
 * ## Example
 * ```ts
 * shiftReferences('=SPELL.RUN("summarize", SPELL.INPUTS("text", A2))', 3, 1);
 * // '=SPELL.RUN("summarize", SPELL.INPUTS("text", B5))'
 * ```
 *
 * @param formula The formula, with its `=`.
 * @param rows How many rows down it moved (up is negative).
 * @param columns How many columns right it moved (left is negative).
 * @return The formula as it reads where it was pasted.
 */
export function shiftReferences(formula: string, rows: number, columns: number): string {
  if (rows === 0 && columns === 0) return formula;
  return formula
    .split(/("(?:[^"]|"")*")/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(
            /(?<![A-Za-z0-9_.$])(\$?)([A-Z]{1,3})(\$?)(\d+)(?![\d(A-Za-z_])/g,
            (_match, columnAnchor: string, column: string, rowAnchor: string, row: string) => {
              const columnNumber = columnAnchor ? toNumber(column) : toNumber(column) + columns;
              const rowNumber = rowAnchor ? Number(row) : Number(row) + rows;
              if (
                columnNumber < 1 ||
                columnNumber > 16_384 ||
                rowNumber < 1 ||
                rowNumber > 1_048_576
              ) {
                return "#REF!";
              }
              return `${columnAnchor}${toLetters(columnNumber)}${rowAnchor}${rowNumber}`;
            }
          )
    )
    .join("");
}

function toNumber(letters: string): number {
  return [...letters].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0);
}

function toLetters(number: number): string {
  let letters = "";
  for (let rest = number; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}
