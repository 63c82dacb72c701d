import fc from "fast-check";
import { FormulaEngine } from "../../playground/formulas/formulaEngine.js";
import { CustomFunctionsRuntime } from "../../playground/functions/customFunctionsRuntime.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";

/**
 * A formula Excel cannot read shows #VALUE! here, and says why as Excel's dialog does ("There's a
 * problem with this formula.") with the cause: the reason after the colon was empty (the parser's
 * message starts with a line break).
 */
describe("The reason a formula cannot be read", () => {
  const cases: [formula: string, reason: RegExp][] = [
    ["=SUM(1,", /closing parenthesis \) is missing/],
    ["=SUM(1", /closing parenthesis \) is missing/],
    ["=(1+2", /closing parenthesis \) is missing/],
    ["=1+*2", /operator without a value: \* follows \+ at character 3/],
    ["=1+", /ends after \+, without a value/],
    ["=1/", /ends after \/, without a value/],
    ["=A1:", /ends after :, without a value/],
    ["=1+2)", /closing parenthesis \) without its opening one/],
    ["=SUM(1;2)", /; is not a separator here/],
    ['="abc', /text is missing its closing quotation mark/],
    ["={1,2", /closing brace \} is missing/],
    ["=*2", /starts with the operator \*/],
  ];
  for (const [formula, reason] of cases) {
    it(`should say why ${formula} cannot be read, and show #VALUE!`, () => {
      const workbook = new MockWorkbook({ sheets: { Sheet1: [[1]] } });
      const engine = new FormulaEngine(workbook, new CustomFunctionsRuntime([], "TEST"));
      const stop = engine.start();
      const sheet = "Sheet1";
      workbook.setValues(sheet, "B2", [[formula]]);
      stop();
      const message = engine.messageAt(sheet, "B2") ?? "";
      expect(workbook.cell(sheet, "B2").value).toBe("#VALUE!");
      expect(message).toMatch(/^There's a problem with this formula: \S/);
      expect(message).toMatch(reason);
    });
  }

  // Any formula cut short or with a character dropped: when it cannot be read, a reason is given.
  it("should never give an empty reason for a generated broken formula", () => {
    const formulas = ["=SUM(A1:B2,3)*(2+4)", '=IF(A1>1,"a&b",{1,2})', '=ROUND(-A1/3,2)^2&"x"'];
    fc.assert(
      fc.property(fc.constantFrom(...formulas), fc.nat(), fc.boolean(), (formula, index, drop) => {
        const at = 1 + (index % (formula.length - 1));
        const broken = drop ? formula.slice(0, at) + formula.slice(at + 1) : formula.slice(0, at);
        const workbook = new MockWorkbook({ sheets: { Sheet1: [[1]] } });
        const engine = new FormulaEngine(workbook, new CustomFunctionsRuntime([], "TEST"));
        const stop = engine.start();
        workbook.setValues("Sheet1", "B2", [[broken]]);
        stop();
        const message = engine.messageAt("Sheet1", "B2") ?? "";
        const problem = /^There's a problem with this formula:(.*)$/s.exec(message);
        // fast-check prints the seed and the shrunk formula of a failure.
        return (
          !problem ||
          (problem[1].trim() !== "" && workbook.cell("Sheet1", "B2").value === "#VALUE!")
        );
      }),
      { numRuns: 60 }
    );
  });
});
