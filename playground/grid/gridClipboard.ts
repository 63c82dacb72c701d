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
 * formulas, their relative references moved by the distance from the copy to the paste (`x`,
 * `y`); undefined when the pasted cells are not that copy.
 */
export function pastedInputs(
  copied: Copied | undefined,
  pasted: { value: unknown }[][],
  x: number,
  y: number
): string[][] | undefined {
  if (!copied || pasted.length !== copied.inputs.length) return undefined;
  const same = pasted.every(
    (row, r) =>
      row.length === copied.inputs[r].length &&
      row.every(
        (cell, c) =>
          String(cell.value) === copied.shown[r][c] || String(cell.value) === copied.inputs[r][c]
      )
  );
  if (!same) return undefined;
  return copied.inputs.map((row) =>
    row.map((input) =>
      input.startsWith("=") ? shiftReferences(input, y - copied.top, x - copied.left) : input
    )
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
