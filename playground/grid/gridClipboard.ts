/** The grid's own clipboard: a copy keeps its cells' inputs, so a paste brings formulas. */
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
