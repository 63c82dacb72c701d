/** The formula a cell shows because another cell's formula spilled into it. */
import { columnName } from "./a1.js";
import type { MockWorkbook } from "./mockWorkbook.js";

/**
 * The anchor of the spill that covers the model's cell (row, column), other than the anchor
 * itself: Excel's formula bar shows its formula, greyed, on every cell of the spill range
 * (Microsoft, "Dynamic array formulas and spilled array behavior": the formula can only be edited
 * in the range's first cell). Undefined for a cell no formula spilled into.
 *
 * @example
 * ```ts
 * spillAnchorOf(workbook, "Sheet2", 1, 6); // { address: "G1", formula: "=UNIQUE(C2:C7)" }
 * ```
 */
export function spillAnchorOf(
  workbook: MockWorkbook,
  sheet: string,
  row: number,
  column: number
): { address: string; formula: string } | undefined {
  let found: { address: string; formula: string } | undefined;
  workbook.forEachCell((name, top, left, cell) => {
    if (found || name !== sheet || cell.formula === undefined) return;
    if (top > row || left > column || (top === row && left === column)) return;
    const address = `${columnName(left)}${top + 1}`;
    const spill = workbook.spillAt(sheet, address);
    if (spill && row < spill.top + spill.rowCount && column < spill.left + spill.columnCount) {
      found = { address, formula: cell.formula };
    }
  });
  return found;
}
