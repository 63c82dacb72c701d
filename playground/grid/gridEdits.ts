/**
 * What a person's typed, pasted and filled cells do to the model (inserts, deletes and sorts are
 * the model's own structural edits: it adjusts the formulas).
 */
import { columnName } from "../../taskpane/sheet/a1Address.js";
import { cellInput } from "../excel/cellInput.js";
import type { MockCellValue, MockWorkbook } from "../excel/mockWorkbook.js";

/**
 * The model's input at a cell: its formula, else its value as text (after its apostrophe, when
 * it was typed with one: see cellInput).
 *
 * @example
 * ```ts
 * inputAt(workbook, "Reviews", 1, 2); // '=SPELL.RUN("summarize", …)'
 * ```
 */
export function inputAt(
  workbook: MockWorkbook,
  sheet: string,
  row: number,
  column: number
): string {
  return cellInput(workbook.cell(sheet, `${columnName(column)}${row + 1}`));
}

/**
 * A person typed, pasted or filled: the model takes it as typed input (`=…` a formula, numeric
 * text a number). Cells one below the other in a column go to the model in one write, so that a
 * fill of thousands of rows is one change for the formula engine, not thousands.
 *
 * @example
 * ```ts
 * typedIntoModel(workbook, "Reviews", [{ x: 2, y: 1, value: "=1+1" }]);
 * ```
 */
export function typedIntoModel(
  workbook: MockWorkbook,
  sheet: string,
  changes: readonly { x: number | string; y: number | string; value: unknown }[]
): void {
  for (const run of columnRuns(changes)) {
    const address = `${columnName(run.x)}${run.y + 1}`;
    workbook.setValues(
      sheet,
      address,
      run.values.map((value) => [String(value ?? "") as MockCellValue])
    );
  }
}

/** Changes grouped into runs of cells one below the other in a column. */
function columnRuns(
  changes: readonly { x: number | string; y: number | string; value: unknown }[]
): { x: number; y: number; values: unknown[] }[] {
  const runs: { x: number; y: number; values: unknown[] }[] = [];
  // By column, then row (a stable sort: a cell changed twice keeps its last value).
  const cells = changes
    .map((change) => ({ x: Number(change.x), y: Number(change.y), value: change.value }))
    .sort((a, b) => a.x - b.x || a.y - b.y);
  for (const { x, y, value } of cells) {
    const last = runs[runs.length - 1];
    if (last && last.x === x && last.y + last.values.length === y) last.values.push(value);
    else runs.push({ x, y, values: [value] });
  }
  return runs;
}
