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
});
