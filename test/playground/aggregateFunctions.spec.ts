import { formulaSheet } from "./support/formulaSheet.js";
import type { FormulaSheet } from "./support/formulaSheet.js";

/** LARGE, SMALL and MEDIAN in the playground, with the examples of Microsoft's pages. */
describe("SUM, AVERAGE, LARGE, SMALL and MEDIAN in the playground (Microsoft's examples)", () => {
  let sheet: FormulaSheet;
  afterEach(() => sheet.stop());

  it("should give AVERAGE's documented results, and SUM's and AVERAGE's over text and empty cells", () => {
    sheet = formulaSheet([["Data"], [10], [7], [9], [27], [2], ["text"], [""], [true]]);
    expect(sheet.shown("=AVERAGE(A2:A6)")).toBe(11);
    expect(sheet.shown("=AVERAGE(A2:A6,5)")).toBe(10);
    // Text, logical values and empty cells of a range are left out.
    expect(sheet.shown("=AVERAGE(A2:A9)")).toBe(11);
    expect(sheet.shown("=SUM(A1:A9)")).toBe(55);
    expect(sheet.shown("=AVERAGE(A7:A9)")).toBe("#DIV/0!");
  });

  it("should give LARGE's and SMALL's documented results, #NUM! past the data", () => {
    sheet = formulaSheet([
      ["Data", "Data"],
      [3, 4],
      [5, 2],
      [3, 4],
      [5, 6],
      [4, 7],
    ]);
    expect(sheet.shown("=LARGE(A2:B6,3)")).toBe(5);
    expect(sheet.shown("=LARGE(A2:B6,7)")).toBe(4);
    expect(sheet.shown("=LARGE(A2:B6,11)")).toBe("#NUM!");
    expect(sheet.shown("=SMALL(A2:B6,0)")).toBe("#NUM!");
    sheet.fill([
      ["Data 1", "Data 2"],
      [3, 1],
      [4, 4],
      [5, 8],
      [2, 3],
      [3, 7],
      [4, 12],
      [6, 54],
      [4, 8],
      [7, 23],
    ]);
    expect(sheet.shown("=SMALL(A2:A10,4)")).toBe(4);
    expect(sheet.shown("=SMALL(B2:B10,2)")).toBe(3);
  });

  it("should give MEDIAN's documented results, text and empty cells of a range left out", () => {
    sheet = formulaSheet([[1], [2], [3], [4], [5], [6], ["x"], [""]]);
    expect(sheet.shown("=MEDIAN(A1:A5)")).toBe(3);
    expect(sheet.shown("=MEDIAN(A1:A6)")).toBe(3.5);
    expect(sheet.shown("=MEDIAN(A1:A8)")).toBe(3.5);
    expect(sheet.shown("=MEDIAN(A7:A8)")).toBe("#NUM!");
  });
});
