import { FormulaEngine } from "../../playground/formulas/formulaEngine.js";
import { CustomFunctionsRuntime } from "../../playground/functions/customFunctionsRuntime.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { formulaSheet } from "./support/formulaSheet.js";

/**
 * Errors in the cells a formula reads, as Excel reads them: an error in a range is the result of
 * SUM, AVERAGE and the other aggregates (the add-in answers #N/A for rows of a SPELL.BULK still
 * running "so formulas over a partial result never compute as if it were final", as the page
 * says), and a cell showing #BUSY! (a call still running) is that error to the formulas reading
 * it, never the text "#BUSY!" (a SPELL.RUN reading it must not run on that text).
 */
describe("Errors in the cells a playground formula reads", () => {
  it("should give the error in a range as SUM's, AVERAGE's, MAX's and SUMPRODUCT's result", () => {
    const sheet = formulaSheet([
      ["label", 3],
      ["#N/A", 4],
      ["text", "#DIV/0!"],
    ]);
    expect(sheet.shown("=SUM(B1:B2)")).toBe(7);
    expect(sheet.shown("=SUM(A1:B2)")).toBe("#N/A");
    expect(sheet.shown("=AVERAGE(A2:B2)")).toBe("#N/A");
    expect(sheet.shown("=SUM(B1:B3)")).toBe("#DIV/0!");
    expect(sheet.shown("=MAX(A1:A3)")).toBe("#N/A");
    expect(sheet.shown("=SUMPRODUCT(A1:A2,B1:B2)")).toBe("#N/A");
    expect(sheet.shown("=SUMPRODUCT(A1:A1,B1:B1)+SUMPRODUCT(B1:B2,B1:B2)")).toBe(25);
    expect(sheet.shown("=SUMPRODUCT(B1:B2,B1:B3)")).toBe("#VALUE!");
    // AVERAGE of no numbers is #DIV/0! (text and empty cells of a range left out).
    expect(sheet.shown("=AVERAGE(A1,A3,C1)")).toBe("#DIV/0!");
    expect(sheet.shown('=AVERAGE(B1:B2,"x")')).toBe("#VALUE!");
    expect(sheet.shown('=SUM(B1,"2",TRUE)')).toBe(6);
    sheet.stop();
  });

  it("should read a cell showing #BUSY! as the error, and never hand its text to a custom function", async () => {
    const runtime = new CustomFunctionsRuntime(
      [{ id: "LATER", name: "LATER", options: {}, parameters: [{ name: "x" }] }],
      "TEST"
    );
    const calls: { x: unknown; resolve: (value: unknown) => void }[] = [];
    runtime.associate(
      "LATER",
      (x: unknown) => new Promise((resolve) => calls.push({ x, resolve }))
    );
    const workbook = new MockWorkbook({ sheets: { Sheet1: [["a", 2]] } });
    const stop = new FormulaEngine(workbook, runtime).start();
    workbook.setValues("Sheet1", "A2", [["=TEST.LATER(A1)", "=SUM(A2,B1)", '=A2&"!"']]);
    workbook.setValues("Sheet1", "A3", [["=TEST.LATER(A2)"]]);
    expect(workbook.values("Sheet1", "A2:C2")).toEqual([["#BUSY!", "#BUSY!", "#BUSY!"]]);
    // As in Excel, A3 waits for A2 (shown #BUSY!) and is called once A2's value is there.
    expect(workbook.cell("Sheet1", "A3").value).toBe("#BUSY!");
    expect(calls.length).toBe(1);
    calls[0].resolve(5);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(workbook.values("Sheet1", "A2:C2")).toEqual([[5, 7, "5!"]]);
    expect(calls.map((call) => call.x)).toEqual(["a", 5]);
    stop();
  });
});
