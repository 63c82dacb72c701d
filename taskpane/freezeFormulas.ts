import { blockAddress, parseAddress } from "./a1Address.js";
import { toCellValue } from "./toCellValue.js";

/**
 * Replaces every `SPELL.*` formula in the selection by its current value, so that results that
 * were paid for never recalculate. Other formulas and constants are left alone: only cells whose
 * formula starts with `=SPELL.` are written, one range per run of adjacent cells in a row, all in
 * one sync (plus the one that reads formulas and values). Text values go into Text-formatted
 * cells so that a result such as "=B2" stays text.
 *
 * A spilled result (an array) lives in the anchor cell's formula: freezing the anchor writes only
 * the anchor's value, so select the spilled cells too and they are frozen as the values they show.
 *
 * ## Example
 * ```ts
 * const { frozen } = await freezeFormulas(); // e.g. 120 cells
 * ```
 * @return how many cells were frozen
 */
export async function freezeFormulas(): Promise<{ frozen: number }> {
  return Excel.run(async (context) => {
    const selected = context.workbook.getSelectedRange();
    selected.load("address, formulas, values");
    await context.sync();
    const { sheet: sheetName, block } = parseAddress(selected.address);
    const sheet = context.workbook.worksheets.getItem(sheetName);
    const formulas = selected.formulas as unknown[][];
    const values = selected.values as unknown[][];
    let frozen = 0;
    formulas.forEach((row, r) => {
      let c = 0;
      while (c < row.length) {
        if (!isSpellFormula(row[c])) {
          c++;
          continue;
        }
        const start = c;
        while (c < row.length && isSpellFormula(row[c])) c++;
        const cells = values[r].slice(start, c).map((value) => toCellValue(value));
        const range = sheet.getRange(
          blockAddress({ top: block.top + r, left: block.left + start, rowCount: 1, columnCount: c - start }),
        );
        range.numberFormat = [cells.map((cell) => cell.numberFormat)];
        range.values = [cells.map((cell) => cell.value)];
        frozen += c - start;
      }
    });
    if (frozen > 0) await context.sync();
    return { frozen };
  });
}

function isSpellFormula(formula: unknown): boolean {
  return typeof formula === "string" && /^=\s*SPELL\./i.test(formula);
}
