import { readValuesInChunks } from "./readValuesInChunks.js";
import type { CellScalar } from "./toCellWrite.js";

/**
 * Reads the input cells of some rows and their number formats (one block from the first to the
 * last row, in chunks).
 *
 * ## Example
 * ```ts
 * const { values, formats } = await readRowInputs("Sheet1", [1, 4], [0, 2]);
 * ```
 *
 * @param sheetName The sheet (name or id).
 * @param rows Absolute rows.
 * @param inputColumns Absolute input columns, in input order.
 * @return Per row: the raw values and number formats of its input cells.
 */
export async function readRowInputs(
  sheetName: string,
  rows: number[],
  inputColumns: number[]
): Promise<{ values: CellScalar[][]; formats: string[][] }> {
  // Reduced, not spread: a whole sheet's rows overflow the call stack as arguments.
  const top = rows.reduce((least, row) => Math.min(least, row), Infinity);
  const bottom = rows.reduce((most, row) => Math.max(most, row), -Infinity);
  const left = Math.min(...inputColumns);
  return Excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(sheetName);
    const { rows: values, formats = [] } = await readValuesInChunks(
      context,
      sheet,
      {
        top,
        left,
        rowCount: bottom - top + 1,
        columnCount: Math.max(...inputColumns) - left + 1,
      },
      undefined,
      true
    );
    const pick = <T>(grid: T[][], row: number) =>
      inputColumns.map((column) => grid[row - top]?.[column - left]);
    return {
      values: rows.map((row) => pick(values, row)),
      formats: rows.map((row) => pick(formats, row) as string[]),
    };
  });
}
