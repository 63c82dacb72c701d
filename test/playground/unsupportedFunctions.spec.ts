import { formulaSheet } from "./support/formulaSheet.js";
import type { FormulaSheet } from "./support/formulaSheet.js";

/** Functions the playground's engine cannot evaluate show #NAME? and say why (the page lists them). */
describe("Functions the playground does not evaluate", () => {
  let sheet: FormulaSheet;
  beforeAll(() => (sheet = formulaSheet([[2, 3]])));
  afterAll(() => sheet.stop());

  it("should show #NAME? for LET and LAMBDA with a message naming the function", () => {
    expect(sheet.shown("=LET(x,2,x*3)")).toBe("#NAME?");
    expect(sheet.message()).toMatch(/LET is not implemented here/);
    expect(sheet.shown("=LET(total,A1+B1,total*2)")).toBe("#NAME?");
    expect(sheet.shown("=1+_xlfn.LET(x,A1,x)")).toBe("#NAME?");
    expect(sheet.shown("=LAMBDA(x,x+1)(2)")).toBe("#NAME?");
    expect(sheet.message()).toMatch(/LAMBDA is not implemented here/);
  });

  it("should leave a text that reads LET( alone, and a function of another name", () => {
    expect(sheet.shown('="LET(x)"')).toBe("LET(x)");
    expect(sheet.message()).toBeUndefined();
    expect(sheet.shown('=OUTLET("a")')).toBe("#NAME?");
    expect(sheet.message()).toMatch(/OUTLET is not implemented/);
  });
});
