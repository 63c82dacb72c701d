import fc from "fast-check";
import { formulaSheet } from "./support/formulaSheet.js";
import type { FormulaSheet } from "./support/formulaSheet.js";

/**
 * ROUND, ROUNDUP and ROUNDDOWN in the playground: the examples of Microsoft's pages, and over
 * generated decimals the rule they state (ROUND: half away from zero, in decimal, as Excel shows
 * the number; ROUNDUP away from zero; ROUNDDOWN toward zero).
 */
describe("Rounding in the playground (Microsoft's examples)", () => {
  let sheet: FormulaSheet;
  beforeAll(() => (sheet = formulaSheet([])));
  afterAll(() => sheet.stop());

  it("should give ROUND's, ROUNDUP's and ROUNDDOWN's documented results", () => {
    const examples: [string, number][] = [
      ["=ROUND(2.15,1)", 2.2],
      ["=ROUND(2.149,1)", 2.1],
      ["=ROUND(-1.475,2)", -1.48],
      ["=ROUND(21.5,-1)", 20],
      ["=ROUND(626.3,-3)", 1000],
      ["=ROUND(1.98,-1)", 0],
      ["=ROUND(-50.55,-2)", -100],
      ["=ROUNDUP(3.2,0)", 4],
      ["=ROUNDUP(76.9,0)", 77],
      ["=ROUNDUP(3.14159,3)", 3.142],
      ["=ROUNDUP(-3.14159,1)", -3.2],
      ["=ROUNDUP(31415.92654,-2)", 31500],
      ["=ROUNDDOWN(3.2,0)", 3],
      ["=ROUNDDOWN(76.9,0)", 76],
      ["=ROUNDDOWN(3.14159,3)", 3.141],
      ["=ROUNDDOWN(-3.14159,1)", -3.1],
      ["=ROUNDDOWN(31415.92654,-2)", 31400],
      ["=ROUND(1.005,2)", 1.01],
      ["=ROUNDUP(1,1)", 1],
      ["=ROUNDDOWN(1.1,1)", 1.1],
    ];
    expect(examples.map(([formula]) => [formula, sheet.shown(formula)])).toEqual(examples);
  });

  it("should round a decimal half away from zero as decimal arithmetic does (generated numbers)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -9_999_999, max: 9_999_999 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        (scaled, decimals, kept) => {
          fc.pre(kept <= decimals);
          // The number scaled / 10^decimals, written in decimal; rounded with whole numbers.
          const written = `${scaled}e-${decimals}`;
          const unit = 10 ** (decimals - kept);
          const magnitude = Math.abs(scaled);
          const half = Math.floor((magnitude + unit / 2) / unit);
          const sign = scaled < 0 ? -1 : 1;
          const expected = (whole: number) =>
            whole === 0 ? 0 : sign * Number(`${whole}e-${kept}`);
          expect(sheet.shown(`=ROUND(${written},${kept})`)).toBe(expected(half));
          expect(sheet.shown(`=ROUNDUP(${written},${kept})`)).toBe(
            expected(Math.ceil(magnitude / unit))
          );
          expect(sheet.shown(`=ROUNDDOWN(${written},${kept})`)).toBe(
            expected(Math.floor(magnitude / unit))
          );
        }
      ),
      { numRuns: 200 }
    );
  });
});
