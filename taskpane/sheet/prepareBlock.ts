import { columnName, type CellBlock } from "./a1Address.js";
import { addBlockName } from "./trackedBlock.js";

/**
 * Before a run, in one sync: inserts a new, empty column where the status column goes when the
 * user chose to insert columns rather than write over their cells (their cells move right;
 * outputs get columns inserted as they appear, see `WriteTarget.ownedWidth`), then names the
 * block (header row to last row, first input column to the status column) so that Excel keeps
 * track of it through inserts and deletes.
 *
 * ## Example
 * ```ts
 * await prepareBlock("Sheet1", block, 3, "spellrun_block_1", true);
 * ```
 *
 * @param sheetName The sheet (name or id).
 * @param block The selected block (header row first).
 * @param statusColumn Where the status column goes.
 * @param blockName The name to give the block (none: not named).
 * @param insertColumn Whether to insert an empty column there first.
 */
export async function prepareBlock(
  sheetName: string,
  block: CellBlock,
  statusColumn: number,
  blockName: string | undefined,
  insertColumn: boolean
): Promise<void> {
  await Excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(sheetName);
    if (insertColumn) {
      const column = columnName(statusColumn);
      sheet.getRange(`${column}:${column}`).insert("Right");
    }
    if (blockName) {
      addBlockName(context, sheet, blockName, {
        top: block.top,
        left: block.left,
        rowCount: block.rowCount,
        columnCount: statusColumn - block.left + 1,
      });
    }
    await context.sync();
  });
}
