/** The grid's own clipboard: a copy keeps its cells' inputs, so a paste brings formulas. */
import type { WorksheetInstance } from "jspreadsheet-ce";
import { shiftReferences } from "../formulas/shiftReferences.js";

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
