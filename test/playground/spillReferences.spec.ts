import fc from "fast-check";
import { FormulaEngine } from "../../playground/formulas/formulaEngine.js";
import { CustomFunctionsRuntime } from "../../playground/functions/customFunctionsRuntime.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { adjustReferences } from "../../playground/excel/adjustReferences.js";
import { shiftReferences } from "../../playground/formulas/shiftReferences.js";
import { formulaSheet } from "./support/formulaSheet.js";

describe("Spill references (Excel's # operator: =SUM(H1#))", () => {
  it("should read the whole range a formula spills, as the trial's sheet did in Excel (36 and 3)", () => {
    const sheet = formulaSheet([
      ["Region", "Units", "East"],
      ["East", 1, "West"],
      ["West", 3, "East"],
      ["North", 5, "North"],
      ["East", 7, "West"],
      ["West", 9, "East"],
      ["North", 11, "West"],
    ]);
    try {
      sheet.set("H1", "=SORT(B2:B7)");
      sheet.set("G1", "=UNIQUE(C2:C7)");
      expect(sheet.shown("=SUM(H1#)")).toBe(36);
      expect(sheet.shown("=ROWS(G1#)")).toBe(3);
      expect(sheet.shown("=Sheet1!G1#", 3, 1, "K1")).toEqual([["West"], ["East"], ["North"]]);
      expect(sheet.shown('="H1#"&COUNTA(G1#)')).toBe("H1#3");
    } finally {
      sheet.stop();
    }
  });

  it("should be #REF! where the anchor does not spill: no formula there, or #SPILL!", () => {
    const sheet = formulaSheet([[1], [2]]);
    try {
      expect(sheet.shown("=SUM(A1#)")).toBe("#REF!");
      expect(sheet.shown("=ROWS(E1#)")).toBe("#REF!");
      expect(sheet.message()).toContain("E1#");
      sheet.set("E1", "=SEQUENCE(3)");
      expect(sheet.read("J1")).toEqual([[3]]);
      sheet.set("E2", "in the way");
      expect(sheet.read("E1:J1")[0][0]).toBe("#SPILL!");
      expect(sheet.read("J1")).toEqual([["#REF!"]]);
      sheet.set("E2", "");
      expect(sheet.read("J1")).toEqual([[3]]);
    } finally {
      sheet.stop();
    }
  });

  it("should move a spill reference as a copy or an inserted row moves its anchor", () => {
    expect(shiftReferences("=SUM(H1#)+Sheet2!G1#", 1, 1)).toBe("=SUM(I2#)+Sheet2!H2#");
    const edit = { sheet: "Sheet1", axis: "row" as const, at: 0, count: 2 };
    expect(adjustReferences("=ROWS(G1#)", "Sheet1", edit)).toBe("=ROWS(G3#)");
  });

  it("should evaluate a reader again when the spill changes its size, entered with it or after it (generated)", () => {
    const workbook = new MockWorkbook({ sheets: { Sheet1: [[""]] } });
    const stop = new FormulaEngine(workbook, new CustomFunctionsRuntime([], "TEST")).start();
    // The reader left of the anchor, written in the same paste: evaluated first, then again.
    workbook.setValues("Sheet1", "B1", [["=ROWS(G1#)", "=ROWS(E1#)", "", "=SEQUENCE(A1+3)"]]);
    expect(workbook.values("Sheet1", "B1:C1")).toEqual([["#REF!", 3]]);
    workbook.setValues("Sheet1", "A2", [["a"], ["a"], ["a"], ["a"], ["a"], ["a"]]);
    workbook.setValues("Sheet1", "G1", [["=UNIQUE(A2:A7)"]]);
    const value = fc.constantFrom("a", "b", "c", "A", "d");
    try {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat(5), value), { minLength: 1, maxLength: 8 }),
          (edits) => {
            for (const [row, text] of edits) {
              workbook.setValues("Sheet1", `A${row + 2}`, [[text]]);
              workbook.setValues("Sheet1", "A1", [[row]]);
              const column = workbook.values("Sheet1", "A2:A7").flat();
              const distinct = new Set(column.map((cell) => String(cell).toLowerCase()));
              if (workbook.cell("Sheet1", "C1").value !== row + 3) return false;
              if (workbook.cell("Sheet1", "B1").value !== distinct.size) return false;
            }
            return true;
          }
        ),
        { numRuns: 60 }
      );
    } finally {
      stop();
    }
  });
});
