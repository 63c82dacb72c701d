import { columnName, parseAddress } from "./a1Address.js";

/**
 * Deletes a column the pane inserted for a run that then started nothing (an unknown spell, the
 * daily cap), so a failed start leaves the sheet as it was. Only when the column holds nothing
 * but what the pane wrote there (`ours`): a cell typed into it meanwhile keeps the column.
 *
 * ## Example
 * ```ts
 * await removeInsertedColumn("Sheet1", 3, (row, value) => skipped.get(row) === value);
 * ```
 *
 * @param sheetName The sheet (its name or id).
 * @param column The inserted column (zero-based).
 * @param ours Whether a non-empty cell (zero-based row, value) was written by the pane.
 * @return True when the column was deleted.
 */
export async function removeInsertedColumn(
  sheetName: string,
  column: number,
  ours: (row: number, value: unknown) => boolean
): Promise<boolean> {
  return Excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(sheetName);
    const used = sheet.getUsedRangeOrNullObject(true);
    used.load("address");
    await context.sync();
    const letter = columnName(column);
    if (!used.isNullObject) {
      const { block } = parseAddress(used.address);
      const bottom = block.top + block.rowCount;
      const cells = sheet.getRange(`${letter}1:${letter}${bottom}`);
      cells.load("values");
      await context.sync();
      const values = cells.values as unknown[][];
      const foreign = values.some(
        ([value], row) => value !== "" && value !== null && !ours(row, value)
      );
      if (foreign) return false;
    }
    sheet.getRange(`${letter}:${letter}`).delete("Left");
    await context.sync();
    return true;
  });
}
