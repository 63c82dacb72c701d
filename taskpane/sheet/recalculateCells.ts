/** Cells recalculated per `context.sync()`: one batch stays far below Office's payload limit. */
const CELLS_PER_SYNC = 2000;

/**
 * Recalculates the given cells only (the spending guard's waiting cells after the user decided),
 * so that other `SPELL` cells, finished or still running, are not called again. Batched: one
 * `context.sync()` per 2,000 cells.
 *
 * ## Example
 * ```ts
 * await recalculateCells(["Sheet1!B2", "'My sheet'!C7"]);
 * ```
 *
 * @param addresses Sheet-qualified addresses, as `invocation.address` gives them.
 */
export async function recalculateCells(addresses: readonly string[]): Promise<void> {
  if (addresses.length === 0) return;
  await Excel.run(async (context) => {
    for (let start = 0; start < addresses.length; start += CELLS_PER_SYNC) {
      for (const address of addresses.slice(start, start + CELLS_PER_SYNC)) {
        const { sheet, cell } = splitAddress(address);
        context.workbook.worksheets.getItem(sheet).getRange(cell).calculate();
      }
      // One sync per chunk, on purpose: a whole column in one batch could pass the payload limit.
      // eslint-disable-next-line office-addins/no-context-sync-in-loop
      await context.sync();
    }
  });
}

/** `'It''s'!B2` → sheet `It's`, cell `B2`: Excel quotes sheet names with spaces or quotes. */
function splitAddress(address: string): { sheet: string; cell: string } {
  const bang = address.lastIndexOf("!");
  const rawSheet = address.slice(0, bang);
  const sheet =
    rawSheet.startsWith("'") && rawSheet.endsWith("'")
      ? rawSheet.slice(1, -1).replaceAll("''", "'")
      : rawSheet;
  return { sheet, cell: address.slice(bang + 1) };
}
