/**
 * A rectangular block of cells on one sheet, by zero-based row and column indexes.
 *
 * ## Example
 * ```ts
 * const block: CellBlock = { top: 0, left: 0, rowCount: 501, columnCount: 2 }; // A1:B501
 * ```
 */
export interface CellBlock {
  top: number;
  left: number;
  rowCount: number;
  columnCount: number;
}

/**
 * The column letters of a zero-based column index (0 → "A", 26 → "AA").
 *
 * ## Example
 * ```ts
 * columnName(27); // "AB"
 * ```
 */
export function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

/**
 * The A1 address of a block, without a sheet name ("B2:D9", or "B2" for one cell).
 *
 * ## Example
 * ```ts
 * blockAddress({ top: 1, left: 1, rowCount: 8, columnCount: 3 }); // "B2:D9"
 * ```
 */
export function blockAddress(block: CellBlock): string {
  const start = `${columnName(block.left)}${block.top + 1}`;
  if (block.rowCount === 1 && block.columnCount === 1) return start;
  const end = `${columnName(block.left + block.columnCount - 1)}${block.top + block.rowCount}`;
  return `${start}:${end}`;
}

/**
 * Reads an A1 address as Excel reports it (`Sheet1!B2:D9`, `'My sheet'!B2`, `B2:D9`) into its
 * sheet name (`""` when absent) and block. Whole-column or whole-row addresses are not cell
 * blocks and are refused.
 *
 * ## Example
 * ```ts
 * parseAddress("'Q3 leads'!A1:B501"); // { sheet: "Q3 leads", block: { top: 0, left: 0, rowCount: 501, columnCount: 2 } }
 * ```
 */
export function parseAddress(address: string): { sheet: string; block: CellBlock } {
  const bang = address.lastIndexOf("!");
  const rawSheet = bang >= 0 ? address.slice(0, bang) : "";
  const sheet = rawSheet.replace(/^'(.*)'$/, "$1").replace(/''/g, "'");
  const cells = address.slice(bang + 1).replace(/\$/g, "");
  const match = /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/i.exec(cells);
  if (!match) throw new Error(`Not a block of cells: ${address}`);
  const left = columnIndex(match[1]);
  const top = Number(match[2]) - 1;
  const right = match[3] ? columnIndex(match[3]) : left;
  const bottom = match[4] ? Number(match[4]) - 1 : top;
  return {
    sheet,
    block: {
      top: Math.min(top, bottom),
      left: Math.min(left, right),
      rowCount: Math.abs(bottom - top) + 1,
      columnCount: Math.abs(right - left) + 1,
    },
  };
}

function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}
