/** The grid's own clipboard: a copy keeps its cells' inputs, so a paste brings formulas. */
import type { WorksheetInstance } from "jspreadsheet-ce";
import { shiftReferences } from "../formulas/shiftReferences.js";
import { LAST_COLUMN, LAST_ROW, type CellBlock } from "../excel/a1.js";

/** The cells last copied in the grid: their inputs (formulas) and what they showed. */
export interface Copied {
  sheet: string;
  left: number;
  top: number;
  inputs: string[][];
  shown: string[][];
}

/**
 * The inputs a paste writes when it pastes what was copied in the grid (`copied`): the copied
 * formulas, their relative references moved by the distance from the copy to each pasted cell
 * (the paste starts at `x`, `y`); undefined when the pasted cells are not that copy.
 *
 * A selection that is a multiple of the copy's size gets the copy repeated to fill it (Excel's
 * rule; jspreadsheet repeats the copied text alike before the paste): each repeat is the copy
 * moved, its formulas adjusted for where that repeat lands.
 *
 * @example
 * ```ts
 * // F2 (=A2*2) copied, pasted into H2:H5: =C2*2, =C3*2, =C4*2, =C5*2
 * pastedInputs(copied, pasted, 7, 1);
 * ```
 */
export function pastedInputs(
  copied: Copied | undefined,
  pasted: { value: unknown }[][],
  x: number,
  y: number
): string[][] | undefined {
  if (!copied) return undefined;
  const height = copied.inputs.length;
  const width = copied.inputs[0]?.length ?? 0;
  const repeats = (count: number, size: number) => size > 0 && count > 0 && count % size === 0;
  if (!repeats(pasted.length, height)) return undefined;
  const same = pasted.every(
    (row, r) =>
      repeats(row.length, width) &&
      row.every((cell, c) => {
        const text = String(cell.value);
        return (
          text === copied.shown[r % height][c % width] ||
          text === copied.inputs[r % height][c % width]
        );
      })
  );
  if (!same) return undefined;
  return pasted.map((row, r) =>
    row.map((_, c) => {
      const input = copied.inputs[r % height][c % width];
      // Each repeat lands (r - r % height) rows and (c - c % width) columns further.
      return input.startsWith("=")
        ? shiftReferences(
            input,
            y + r - (r % height) - copied.top,
            x + c - (c % width) - copied.left
          )
        : input;
    })
  );
}

/**
 * A copy in the grid (`range` is jspreadsheet's [left, top, right, bottom] in the block whose
 * first cell is the model's `origin`): its cells' inputs, so a paste brings formulas, not values.
 *
 * @example
 * ```ts
 * copiedCells(worksheet, "Reviews", { row: 0, column: 0 }, [5, 1, 5, 1], inputOf);
 * ```
 */
export function copiedCells(
  worksheet: WorksheetInstance,
  sheet: string,
  origin: { row: number; column: number },
  range: readonly (number | string)[],
  inputOf: (row: number, column: number) => string
): Copied {
  const [left, top, right, bottom] = range.map(Number);
  const rows = Array.from({ length: bottom - top + 1 }, (_, r) => top + r);
  const columns = Array.from({ length: right - left + 1 }, (_, c) => left + c);
  return {
    sheet,
    left: origin.column + left,
    top: origin.row + top,
    inputs: rows.map((y) => columns.map((x) => inputOf(origin.row + y, origin.column + x))),
    shown: rows.map((y) => columns.map((x) => worksheet.getCellFromCoords(x, y)?.innerHTML ?? "")),
  };
}

/** A cell a paste writes: the model's column `x` and row `y`, and the input written there. */
export interface PastedCell {
  x: number;
  y: number;
  value: string;
}

/** The most cells a paste repeats its copy over (two whole columns); Ctrl+Enter fills as many. */
export const MOST_PASTED_CELLS = 2 * (LAST_ROW + 1);

/**
 * A paste over the model's selection, not only over the part of it the grid's block holds (the
 * grid holds rows near the view: jspreadsheet's paste reaches only those). What was pasted
 * (`pasted`, as jspreadsheet hands it, already repeated over the block's part of the selection,
 * starting at the model's cell `at`) is repeated over the whole selection when the selection is a
 * multiple of it (each way on its own, as the grid repeats it), else written once at the
 * selection's first cell (Excel's rule: one copied cell fills every cell of a selected range).
 *
 * A copy made in the grid (`copied`) brings its formulas, their relative references moved per
 * cell as `pastedInputs` moves them; text from elsewhere is written as it came, the smallest
 * block that repeats to make it taken as what was copied.
 *
 * @example
 * ```ts
 * // D2 ("pasted") copied; D3:D1101 selected, the grid holding D1080:D1101 (at = D1080)
 * pasteOverSelection(copied, pasted, { row: 1079, column: 3 }, selection).cells.length; // 1099
 * ```
 * @returns The cells to write (row by row) and the block they cover.
 */
export function pasteOverSelection(
  copied: Copied | undefined,
  pasted: { value: unknown }[][],
  at: { row: number; column: number },
  selection: CellBlock
): { cells: PastedCell[]; block: CellBlock } {
  const inSelection =
    at.row >= selection.top &&
    at.row < selection.top + selection.rowCount &&
    at.column >= selection.left &&
    at.column < selection.left + selection.columnCount;
  const fromGrid = pastedInputs(copied, pasted, at.column, at.row) !== undefined;
  const tile = fromGrid && copied ? copied.inputs : smallestRepeat(pasted);
  const height = tile.length;
  const width = tile[0]?.length ?? 0;
  const area = inSelection
    ? selection
    : { top: at.row, left: at.column, rowCount: height, columnCount: width };
  // A selection of more cells than the page can write at once (Ctrl+A's whole sheet, 17 billion
  // cells) takes the paste once, at its first cell, rather than stopping the page.
  const tooLarge = area.rowCount * area.columnCount > MOST_PASTED_CELLS;
  const fits = (count: number, size: number) =>
    size > 0 && count % size === 0 && !tooLarge ? count : size;
  const block = {
    top: area.top,
    left: area.left,
    rowCount: Math.min(fits(area.rowCount, height), LAST_ROW + 1 - area.top),
    columnCount: Math.min(fits(area.columnCount, width), LAST_COLUMN + 1 - area.left),
  };
  const cells: PastedCell[] = [];
  for (let r = 0; r < block.rowCount; r++) {
    for (let c = 0; c < block.columnCount; c++) {
      const input = tile[r % height][c % width];
      const value =
        fromGrid && copied && input.startsWith("=")
          ? shiftReferences(
              input,
              block.top + r - (r % height) - copied.top,
              block.left + c - (c % width) - copied.left
            )
          : input;
      cells.push({ x: block.left + c, y: block.top + r, value });
    }
  }
  return { cells, block };
}

/**
 * The smallest block whose repeats make `pasted` (jspreadsheet repeats the clipboard's text over
 * the selection before handing it over): the clipboard's text, as far as it can be told.
 */
function smallestRepeat(pasted: { value: unknown }[][]): string[][] {
  const text = pasted.map((row) => row.map((cell) => String(cell.value ?? "")));
  const lines = text.map((row) => row.join("\t"));
  const repeatsEvery = (count: number, size: number, same: (i: number, j: number) => boolean) =>
    count % size === 0 &&
    Array.from({ length: count }, (_, i) => i).every((i) => same(i, i % size));
  const rows = text.length;
  const height =
    Array.from({ length: rows }, (_, i) => i + 1).find((size) =>
      repeatsEvery(rows, size, (i, j) => lines[i] === lines[j])
    ) ?? rows;
  const columns = text[0]?.length ?? 0;
  const width =
    Array.from({ length: columns }, (_, i) => i + 1).find((size) =>
      repeatsEvery(columns, size, (i, j) => text.every((row) => row[i] === row[j]))
    ) ?? columns;
  return text.slice(0, height).map((row) => row.slice(0, width));
}
