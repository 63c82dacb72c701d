/**
 * The playground's own A1 addresses, written apart from the add-in's (`taskpane/sheet/a1Address`)
 * on purpose: the workbook model is what the add-in's specs run against, so a mistake in the
 * add-in's parser must not be mirrored by the fake meant to catch it.
 */

/** Excel's last row, zero-based (row 1,048,576). */
export const LAST_ROW = 1_048_575;
/** Excel's last column, zero-based (column XFD). */
export const LAST_COLUMN = 16_383;

/**
 * A rectangle of cells, zero-based (row 0 is row 1 in Excel, column 0 is A).
 *
 * ## Example
 * ```ts
 * const block: CellBlock = { top: 0, left: 1, rowCount: 2, columnCount: 1 }; // B1:B2
 * ```
 */
export interface CellBlock {
  top: number;
  left: number;
  rowCount: number;
  columnCount: number;
}

/**
 * The letters of a zero-based column: 0 → "A", 25 → "Z", 26 → "AA".
 *
 * ## Example
 * ```ts
 * columnName(27); // "AB"
 * ```
 *
 * @param column Zero-based column.
 * @return Its letters.
 */
export function columnName(column: number): string {
  let letters = "";
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/**
 * The zero-based column of letters: "A" → 0, "AA" → 26 (case-insensitive).
 *
 * ## Example
 * ```ts
 * columnIndex("AB"); // 27
 * ```
 *
 * @param letters Column letters.
 * @return Zero-based column.
 */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const letter of letters.toUpperCase()) n = n * 26 + (letter.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * A block's address without a sheet: "B2" for one cell, "B2:C4" for more.
 *
 * ## Example
 * ```ts
 * blockAddress({ top: 1, left: 1, rowCount: 3, columnCount: 2 }); // "B2:C4"
 * ```
 *
 * @param block The block.
 * @return Its address.
 */
export function blockAddress(block: CellBlock): string {
  const start = `${columnName(block.left)}${block.top + 1}`;
  if (block.rowCount === 1 && block.columnCount === 1) return start;
  const end = `${columnName(block.left + block.columnCount - 1)}${block.top + block.rowCount}`;
  return `${start}:${end}`;
}

/**
 * Parses "Sheet1!B2:C4", "'My sheet'!B2" or "B2" ($ signs allowed) into its sheet ("" without
 * one) and block; the two corners may come in any order.
 *
 * ## Example
 * ```ts
 * parseAddress("'It''s'!C3:A1"); // { sheet: "It's", block: { top: 0, left: 0, rowCount: 3, columnCount: 3 } }
 * ```
 *
 * @param address The address.
 * @return The sheet and the block.
 * @throws Error when it is not an A1 address, or names a cell past XFD1048576 (Excel's last).
 */
export function parseAddress(address: string): { sheet: string; block: CellBlock } {
  const bang = address.lastIndexOf("!");
  let sheet = bang < 0 ? "" : address.slice(0, bang);
  if (sheet.length >= 2 && sheet.startsWith("'") && sheet.endsWith("'")) {
    sheet = sheet.slice(1, -1).split("''").join("'");
  }
  const corners = address
    .slice(bang + 1)
    .split("$")
    .join("")
    .split(":");
  const cells = corners.map((corner) => {
    const match = /^([A-Za-z]{1,3})([1-9][0-9]{0,6})$/.exec(corner);
    if (!match) throw new Error(`Not an A1 address: ${address}`);
    const cell = { row: Number(match[2]) - 1, column: columnIndex(match[1]) };
    // "XFE1" and "A1048577" look like addresses but name no cell of a sheet.
    if (cell.row > LAST_ROW || cell.column > LAST_COLUMN) {
      throw new Error(`Not an A1 address (past XFD1048576): ${address}`);
    }
    return cell;
  });
  if (cells.length > 2) throw new Error(`Not an A1 address: ${address}`);
  const [first, last = first] = cells;
  const top = Math.min(first.row, last.row);
  const left = Math.min(first.column, last.column);
  return {
    sheet,
    block: {
      top,
      left,
      rowCount: Math.abs(last.row - first.row) + 1,
      columnCount: Math.abs(last.column - first.column) + 1,
    },
  };
}
