import { parseAddress } from "./a1Address.js";

/**
 * Where the user's selection is: its sheet (by id) and its first column. The pane asks this when
 * the user picks the column for the results by clicking a cell in it. One sync.
 *
 * ## Example
 * ```ts
 * const { sheetId, column } = await selectedColumn(); // column 7 for a cell in H
 * ```
 */
export async function selectedColumn(): Promise<{
  sheetId: string;
  sheet: string;
  column: number;
}> {
  return Excel.run(async (context) => {
    const selected = context.workbook.getSelectedRange();
    selected.load("address, worksheet/id");
    await context.sync();
    const { sheet, block } = parseAddress(selected.address);
    return { sheetId: selected.worksheet.id, sheet, column: block.left };
  });
}
