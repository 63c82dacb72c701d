import { blockAddress, parseAddress } from "./a1Address.js";
import type { CellBlock } from "./a1Address.js";
import { TEXT_FORMAT, toCellWrite } from "./toCellWrite.js";
import type { CellScalar } from "./toCellWrite.js";

/**
 * Replaces every `SPELL.*` formula in the selection by its current value, so that results that
 * were paid for never recalculate. Other formulas and constants are left alone.
 *
 * A formula whose result spills (an array) is replaced by the whole block it spills into, since
 * removing the formula would otherwise empty the spilled cells. Text values go into
 * Text-formatted cells so that a result such as "=B2" stays text; other cells keep their format.
 *
 * Syncs: one to read formulas and values, one to find the spilled blocks (ExcelApi 1.12; skipped
 * where it is missing), one to write.
 *
 * ## Example
 * ```ts
 * const { frozen } = await freezeFormulas(); // e.g. 120 formulas
 * ```
 * @return how many formulas were replaced
 */
export async function freezeFormulas(): Promise<{ frozen: number }> {
  return Excel.run(async (context) => {
    const selected = context.workbook.getSelectedRange();
    selected.load("address, formulas, values");
    await context.sync();
    const { sheet: sheetName, block } = parseAddress(selected.address);
    const sheet = context.workbook.worksheets.getItem(sheetName);
    const formulas = selected.formulas as unknown[][];
    const values = selected.values as CellScalar[][];

    const anchors: Array<{ top: number; left: number; spill?: Excel.Range }> = [];
    formulas.forEach((row, r) =>
      row.forEach((formula, c) => {
        if (isSpellFormula(formula)) anchors.push({ top: block.top + r, left: block.left + c });
      })
    );
    if (anchors.length === 0) return { frozen: 0 };

    if (spillsAreReadable()) {
      for (const anchor of anchors) {
        const cell = sheet.getRange(blockAddress({ ...anchor, rowCount: 1, columnCount: 1 }));
        anchor.spill = cell.getSpillingToRangeOrNullObject();
        anchor.spill.load("address, values");
      }
      await context.sync();
    }

    for (const anchor of anchors) {
      const spill = anchor.spill && !anchor.spill.isNullObject ? anchor.spill : undefined;
      const target: CellBlock = spill
        ? parseAddress(spill.address).block
        : { ...anchor, rowCount: 1, columnCount: 1 };
      const cells: CellScalar[][] = spill
        ? (spill.values as CellScalar[][])
        : [[values[anchor.top - block.top][anchor.left - block.left]]];
      const written = cells.map((row) => row.map((value) => toCellWrite(value)));
      const range = sheet.getRange(blockAddress(target));
      // Only text needs a format (to stay text); numbers and dates keep the cell's own format.
      range.numberFormat = written.map((row) =>
        row.map((cell) => (cell.numberFormat === TEXT_FORMAT ? TEXT_FORMAT : null))
      ) as string[][];
      range.values = written.map((row) => row.map((cell) => cell.value));
    }
    await context.sync();
    return { frozen: anchors.length };
  });
}

function isSpellFormula(formula: unknown): boolean {
  return typeof formula === "string" && /^=\s*SPELL\./i.test(formula);
}

/** `getSpillingToRangeOrNullObject` needs ExcelApi 1.12; without it, anchors are frozen alone. */
function spillsAreReadable(): boolean {
  const requirements = (Office.context as { requirements?: Office.RequirementSetSupport })
    .requirements;
  return requirements?.isSetSupported?.("ExcelApi", "1.12") ?? true;
}
