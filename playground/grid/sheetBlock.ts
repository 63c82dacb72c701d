/**
 * The block of a sheet that the grid holds: jspreadsheet keeps a few hundred rows and a few dozen
 * columns, and they show the model's cells from an origin that moves with the view. The model is
 * the truth (every row to 1,048,576, every column to XFD); the grid's cell (x, y) is the model's
 * cell (origin.column + x, origin.row + y). Moving the block rewrites its cells from the model
 * (jspreadsheet builds no row or cell for it), and its row and column headers show the model's
 * numbers and letters.
 */
import type { WorksheetInstance } from "jspreadsheet-ce";
import { columnName, LAST_COLUMN, LAST_ROW } from "../excel/a1.js";
import { quietly } from "./quietly.js";

/** Rows the block holds after a move (a drag may grow it; it shrinks back when it moves). */
export const BLOCK_ROWS = 200;
/**
 * Rows the block grows to at most to show cells the model wrote just past it (a result, a spill)
 * or a document reopened: each row the grid holds costs a moment to build.
 */
export const BLOCK_LIMIT = 2_000;
/** Columns the block holds at most (a spill wider than the view still shows at once). */
export const BLOCK_COLUMN_LIMIT = 64;

/** jspreadsheet's parts of a worksheet that the block rewrites (not in its public types). */
interface BlockParts {
  table: HTMLTableElement;
  rows: { element: HTMLTableRowElement; y?: number }[];
  headers: HTMLElement[];
  cols: { colElement: HTMLElement }[];
  records: { element: HTMLTableCellElement; x?: number; y?: number }[][];
  options: { data: unknown[][]; columns?: { width?: number | string }[] };
  history?: unknown[];
  historyIndex?: number;
}

/**
 * Which model cells a worksheet holds, and their move.
 *
 * @example
 * ```ts
 * const block = new SheetBlock(worksheet, (column) => 120, (y, x) => refill(y, x));
 * block.moveTo(5_000, 0); // rows 5,001… of the model in the grid
 * ```
 */
export class SheetBlock {
  /** The model's row shown by the grid's first row (zero-based). */
  row = 0;
  /** The model's column shown by the grid's first column (zero-based). */
  column = 0;

  /**
   * @param worksheet The worksheet holding the block.
   * @param widthOf A model column's width, in pixels.
   * @param refill Writes the model's cell into the grid's cell (x, y) and shows it.
   * @param columnOptions A grid column's options (its cells show the model's), of a width.
   */
  constructor(
    private readonly worksheet: WorksheetInstance,
    readonly widthOf: (column: number) => number,
    private readonly refill: (x: number, y: number) => void,
    private readonly columnOptions: (width: number) => object = () => ({})
  ) {}

  /**
   * Adds `count` columns at the block's right (a view wider than the block): their cells show
   * the model's.
   */
  addColumns(count: number): void {
    const parts = this.parts();
    const had = parts.headers.length;
    const add = Math.min(count, LAST_COLUMN + 1 - this.column - had);
    if (add <= 0) return;
    quietly(this.worksheet, () => this.worksheet.insertColumn(add));
    const columns = (parts.options.columns ??= []);
    for (let x = had; x < had + add; x++) {
      columns[x] = { ...columns[x], ...this.columnOptions(this.widthOf(this.column + x)) };
    }
    for (let y = 0; y < parts.rows.length; y++) {
      for (let x = had; x < had + add; x++) this.refill(x, y);
    }
    this.label();
  }

  /** How many rows the grid holds now. */
  rowCount(): number {
    return this.parts().rows.length;
  }

  /** How many columns the grid holds now. */
  columnCount(): number {
    return this.parts().headers.length;
  }

  /** Whether the model's cell is in the block. */
  holds(row: number, column: number): boolean {
    return (
      row >= this.row &&
      row < this.row + this.rowCount() &&
      column >= this.column &&
      column < this.column + this.columnCount()
    );
  }

  /** Where a model column starts, in pixels from column A's left edge. */
  columnLeft(column: number): number {
    let left = 0;
    for (let c = 0; c < column; c++) left += this.widthOf(c);
    return left;
  }

  /** The model column at `x` pixels from column A's left edge. */
  columnAt(x: number): number {
    let left = 0;
    for (let column = 0; column <= LAST_COLUMN; column++) {
      left += this.widthOf(column);
      if (left > x) return column;
    }
    return LAST_COLUMN;
  }

  /**
   * Moves the block so that its first cell is the model's (row, column), clamped so the block
   * stays on the sheet; a block grown past `rows` rows (by a drag) shrinks back to them first.
   * jspreadsheet's own history is forgotten: its records name the grid's cells, which now show
   * others (the grid's undo is ModelUndo's, in the model's cells).
   *
   * @return Whether the block changed (moved or shrank).
   */
  moveTo(row: number, column: number, rows = BLOCK_ROWS): boolean {
    const parts = this.parts();
    const shrunk = parts.rows.length > rows;
    if (shrunk) {
      const extra = parts.rows.length - rows;
      quietly(this.worksheet, () => this.worksheet.deleteRow(rows, extra));
    }
    const top = Math.max(0, Math.min(row, LAST_ROW + 1 - this.rowCount()));
    const left = Math.max(0, Math.min(column, LAST_COLUMN + 1 - this.columnCount()));
    const moved = top !== this.row || left !== this.column;
    const shift = left - this.column;
    const rowShift = top - this.row;
    const columns = parts.headers.length;
    const rowCount = parts.rows.length;
    // A move shorter than the block keeps the cells of the columns and rows still in it on their
    // elements, and refills only those that came in; a jump farther refills every cell.
    const kept = Math.abs(shift) < columns && Math.abs(rowShift) < rowCount;
    this.row = top;
    this.column = left;
    if (kept && shift !== 0) this.shiftCells(shift);
    if (kept && rowShift !== 0) this.shiftRows(rowShift);
    this.label();
    if (!moved) return shrunk;
    parts.history = [];
    parts.historyIndex = -1;
    const freshColumn = (x: number) => !kept || (shift > 0 ? x >= columns - shift : x < -shift);
    const freshRow = (y: number) =>
      !kept || (rowShift > 0 ? y >= rowCount - rowShift : y < -rowShift);
    for (let y = 0; y < rowCount; y++) {
      const all = freshRow(y);
      for (let x = 0; x < columns; x++) if (all || freshColumn(x)) this.refill(x, y);
    }
    return true;
  }

  /**
   * A move of `shift` rows (down when positive) that keeps the rows still in the block, as
   * `shiftCells` keeps the columns: each such row's element (its cells) moves to its new place in
   * jspreadsheet's lists, and the rows that left take the places of those that come in. A cell
   * scrolled into view at the block's bottom edge (a click's scroll, find in page) whose scroll
   * moved the block down is still the cell clicked (C195 had come to show C460).
   */
  private shiftRows(shift: number): void {
    const parts = this.parts();
    // The selection's marks are on rows by their places: taken off before the rows move.
    quietly(this.worksheet, () => this.worksheet.resetSelection());
    const rotate = <T>(list: T[]): T[] => [...list.slice(shift), ...list.slice(0, shift)];
    const count = parts.rows.length;
    parts.rows.splice(0, count, ...rotate(parts.rows));
    parts.records.splice(0, count, ...rotate(parts.records.slice(0, count)));
    parts.options.data.splice(0, count, ...rotate(parts.options.data.slice(0, count)));
    parts.rows.forEach((row, y) => {
      row.y = y;
      row.element.setAttribute("data-y", String(y));
      row.element.firstElementChild?.setAttribute("data-y", String(y));
      for (const record of parts.records[y] ?? []) {
        record.y = y;
        record.element.setAttribute("data-y", String(y));
      }
    });
  }

  /**
   * A sideways move of `shift` columns (right when positive) that keeps the cells of the model
   * columns still in the block: each such cell's element moves to its new place in its row (its
   * data-x and jspreadsheet's record follow), and the elements of the columns that left take the
   * places of those that come in. So an element of the grid always shows the same model cell
   * while it is in the block: a cell scrolled into view (by the browser, find in page, a test's
   * click), whose scroll moves the block, is still the cell under the pointer, rather than one
   * `shift` columns away (where typed text went before).
   */
  private shiftCells(shift: number): void {
    const parts = this.parts();
    // jspreadsheet takes its selection's marks off the headers by its cells' places: taken off
    // before the cells move (the block's move shows the model's selection again after), else a
    // header K's mark stayed on the header that came to show Q (and one more after each move).
    quietly(this.worksheet, () => this.worksheet.resetSelection());
    // The list as seen `shift` places on (a negative shift turns it the other way).
    const rotate = <T>(list: T[]): T[] => [...list.slice(shift), ...list.slice(0, shift)];
    parts.records.forEach((records, y) => {
      const moved = rotate(records);
      const row = parts.rows[y].element;
      moved.forEach((record, x) => {
        records[x] = record;
        record.x = x;
        record.element.setAttribute("data-x", String(x));
      });
      row.append(...moved.map((record) => record.element));
      const data = parts.options.data[y];
      if (data) data.splice(0, data.length, ...rotate(data));
    });
  }

  /**
   * Shows the model's row numbers and column letters in the headers, the model's column widths,
   * and puts the table where the block's first column is.
   */
  label(): void {
    const parts = this.parts();
    parts.rows.forEach((row, y) => {
      const header = row.element.firstElementChild as HTMLElement | null;
      const text = String(this.row + y + 1);
      if (header && header.textContent !== text) header.textContent = text;
    });
    let width = 0;
    parts.headers.forEach((header, x) => {
      showLetter(header, columnName(this.column + x));
      const columnWidth = this.widthOf(this.column + x);
      width += columnWidth;
      if (parts.cols[x].colElement.getAttribute("width") !== String(columnWidth)) {
        parts.cols[x].colElement.setAttribute("width", String(columnWidth));
        const column = parts.options.columns?.[x];
        if (column) column.width = columnWidth;
      }
    });
    // The columns before and after the block are margins of the table: the view scrolls over
    // every column to XFD while the page holds the block's.
    const before = this.columnLeft(this.column);
    const after = this.columnLeft(LAST_COLUMN + 1) - before - width;
    parts.table.style.marginLeft = `${before}px`;
    // The row headers are as wide as the block's largest row number needs ("1048576").
    const digits = String(this.row + parts.rows.length).length;
    const headerWidth = String(Math.max(50, 8 * digits + 16));
    const headerColumn = parts.table.querySelector("colgroup > col");
    if (headerColumn && headerColumn.getAttribute("width") !== headerWidth) {
      headerColumn.setAttribute("width", headerWidth);
      // Where a column's letter stops when its column is partly under the row headers.
      parts.table.style.setProperty("--playground-row-headers-width", `${headerWidth}px`);
    }
    parts.table.style.marginRight = `${Math.max(0, after)}px`;
  }

  private parts(): BlockParts {
    return this.worksheet as unknown as BlockParts;
  }
}

/**
 * Shows a column's letter in its header, in an element of its own that the page's style keeps
 * right of the row headers while the column is partly scrolled under them (a first column
 * partly in view showed no letter: it lay under the row headers).
 */
function showLetter(header: HTMLElement, text: string): void {
  const letter = header.firstChild;
  if (
    header.childNodes.length === 1 &&
    letter instanceof HTMLElement &&
    letter.classList.contains("playground-column-letter")
  ) {
    if (letter.textContent !== text) letter.textContent = text;
    return;
  }
  const element = document.createElement("span");
  element.className = "playground-column-letter";
  element.textContent = text;
  header.replaceChildren(element);
}
