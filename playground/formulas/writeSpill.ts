/** Writing a formula's value into the workbook model, spilled when it is an array. */
import { columnName } from "../excel/a1.js";
import type { CellBlock } from "../excel/a1.js";
import type { MockCellValue, MockWorkbook } from "../excel/mockWorkbook.js";
import { contains } from "./cellBlocks.js";

/**
 * Writes a formula's value at its anchor, spilled into the cells beside it when it is an array,
 * or `#SPILL!` when a cell of the user's is in the way (a spill never writes over one). What the
 * last value covered and this one does not is emptied, as Excel does.
 *
 * ## Example
 * ```ts
 * const { covered, wanted } = writeSpill(workbook, "Sheet1", anchor, "=SEQUENCE(3)", [[1], [2], [3]], anchor);
 * ```
 *
 * @param workbook The model.
 * @param sheet The formula's sheet.
 * @param anchor The formula's cell (one cell).
 * @param formula The formula.
 * @param values Its value, as rows of cells.
 * @param before The block its last value covered (the anchor alone at first).
 * @return The block it covers now, and the block a blocked spill wants (undefined when not blocked).
 */
export function writeSpill(
  workbook: MockWorkbook,
  sheet: string,
  anchor: CellBlock,
  formula: string,
  values: MockCellValue[][],
  before: CellBlock
): { covered: CellBlock; wanted: CellBlock | undefined } {
  const { top: row, left: column } = anchor;
  const wanted = { top: row, left: column, rowCount: values.length, columnCount: values[0].length };
  const blocked = values.some((line, r) =>
    line.some((_, c) => {
      if (r === 0 && c === 0) return false;
      if (contains(before, row + r, column + c)) return false;
      const other = workbook.cell(sheet, `${columnName(column + c)}${row + r + 1}`);
      return other.value !== "" || other.formula !== undefined;
    })
  );
  const covered = blocked ? { ...wanted, rowCount: 1, columnCount: 1 } : wanted;
  emptySpilled(workbook, sheet, before, covered);
  const shown = blocked ? [["#SPILL!" as MockCellValue]] : values;
  workbook.setSpill(sheet, `${columnName(column)}${row + 1}`, formula, shown);
  return { covered, wanted: blocked ? wanted : undefined };
}

/**
 * Empties the cells a spill covered beside its anchor (`spill`'s top-left cell), except those in
 * `keep` (what it covers now, or what a person just typed).
 *
 * ## Example
 * ```ts
 * emptySpilled(workbook, "Sheet1", { top: 0, left: 2, rowCount: 37, columnCount: 1 }, anchor);
 * ```
 *
 * @param workbook The model.
 * @param sheet The spill's sheet.
 * @param spill The block the spill covered, its anchor first.
 * @param keep The cells to leave as they are.
 */
export function emptySpilled(
  workbook: MockWorkbook,
  sheet: string,
  spill: CellBlock,
  keep: CellBlock
): void {
  for (let r = 0; r < spill.rowCount; r++) {
    for (let c = 0; c < spill.columnCount; c++) {
      const at = { row: spill.top + r, column: spill.left + c };
      if ((r === 0 && c === 0) || contains(keep, at.row, at.column)) continue;
      workbook.setValues(sheet, `${columnName(at.column)}${at.row + 1}`, [[""]]);
    }
  }
}
