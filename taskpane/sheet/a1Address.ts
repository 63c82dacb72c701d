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

/** Excel's last row and column (zero-based): a sheet has 1,048,576 rows and 16,384 columns. */
export const LAST_ROW_INDEX = 1_048_575;
export const LAST_COLUMN_INDEX = 16_383;

/**
 * Reads any address Excel reports for a selection: a block (`Sheet1!B2:D9`), whole columns
 * (`Sheet1!A:C`, every row of them) or whole rows (`Sheet1!3:5`, every column), into its sheet,
 * block and which of the two it is.
 *
 * ## Example
 * ```ts
 * parseSelectionAddress("Sheet1!A:C"); // { sheet: "Sheet1", block: { top: 0, left: 0, rowCount: 1048576, columnCount: 3 }, lines: "columns" }
 * ```
 */
export function parseSelectionAddress(address: string): {
  sheet: string;
  block: CellBlock;
  lines?: "columns" | "rows";
} {
  const bang = address.lastIndexOf("!");
  const cells = address.slice(bang + 1).replace(/\$/g, "");
  const sheet = parseAddress(`${address.slice(0, bang + 1)}A1`).sheet;
  const columns = /^([A-Z]+):([A-Z]+)$/i.exec(cells);
  if (columns) {
    const [a, b] = [columnIndex(columns[1]), columnIndex(columns[2])];
    const left = Math.min(a, b);
    return {
      sheet,
      block: { top: 0, left, rowCount: LAST_ROW_INDEX + 1, columnCount: Math.abs(b - a) + 1 },
      lines: "columns",
    };
  }
  const rows = /^(\d+):(\d+)$/.exec(cells);
  if (rows) {
    const [a, b] = [Number(rows[1]) - 1, Number(rows[2]) - 1];
    return {
      sheet,
      block: {
        top: Math.min(a, b),
        left: 0,
        rowCount: Math.abs(b - a) + 1,
        columnCount: LAST_COLUMN_INDEX + 1,
      },
      lines: "rows",
    };
  }
  return parseAddress(address);
}

/**
 * The cells two blocks share, undefined when they do not meet.
 *
 * ## Example
 * ```ts
 * intersectBlocks({ top: 0, left: 0, rowCount: 1048576, columnCount: 3 }, { top: 2, left: 1, rowCount: 10, columnCount: 5 });
 * // { top: 2, left: 1, rowCount: 10, columnCount: 2 }
 * ```
 */
export function intersectBlocks(a: CellBlock, b: CellBlock): CellBlock | undefined {
  const top = Math.max(a.top, b.top);
  const left = Math.max(a.left, b.left);
  const bottom = Math.min(a.top + a.rowCount, b.top + b.rowCount);
  const right = Math.min(a.left + a.columnCount, b.left + b.columnCount);
  if (bottom <= top || right <= left) return undefined;
  return { top, left, rowCount: bottom - top, columnCount: right - left };
}
