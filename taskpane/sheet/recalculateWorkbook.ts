/**
 * Recalculates every formula of the workbook (after remembered results were cleared, so that
 * `SPELL.*` formulas ask the service again).
 *
 * ## Example
 * ```ts
 * await clearRememberedResults();
 * await recalculateWorkbook();
 * ```
 */
export async function recalculateWorkbook(): Promise<void> {
  await Excel.run(async (context) => {
    context.workbook.application.calculate(Excel.CalculationType.full);
    await context.sync();
  });
}
