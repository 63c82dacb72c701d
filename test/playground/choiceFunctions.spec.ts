import fc from "fast-check";
import { formulaSheet } from "./support/formulaSheet.js";
import type { FormulaSheet } from "./support/formulaSheet.js";

/** SWITCH, IFS and LOOKUP in the playground, with the examples of Microsoft's page of each. */
describe("Choice functions in the playground (Microsoft's examples)", () => {
  let sheet: FormulaSheet;
  afterEach(() => sheet.stop());

  it("should give SWITCH's documented results: the first match, else the default, else #N/A", () => {
    sheet = formulaSheet([[2], [99], [99], [2]]);
    expect(sheet.shown('=SWITCH(WEEKDAY(A1),1,"Sunday",2,"Monday",3,"Tuesday","No match")')).toBe(
      "Monday"
    );
    expect(sheet.shown('=SWITCH(A2,1,"Sunday",2,"Monday",3,"Tuesday")')).toBe("#N/A");
    expect(sheet.shown('=SWITCH(A3,1,"Sunday",7,"Saturday","weekday")')).toBe("weekday");
    expect(sheet.shown('=SWITCH(A4,1,"Sunday",7,"Saturday","weekday")')).toBe("weekday");
    // Text matches without regard to case; an error in the expression is the result.
    expect(sheet.shown('=SWITCH("b","B",1,2)')).toBe(1);
    expect(sheet.shown('=SWITCH(1/0,1,"one")')).toBe("#DIV/0!");
  });

  it("should give IFS's documented results", () => {
    sheet = formulaSheet([[93], [89], [72], [50]]);
    const grade = (row: number) =>
      sheet.shown(`=IFS(A${row}>89,"A",A${row}>79,"B",A${row}>69,"C",A${row}>59,"D",TRUE,"F")`);
    expect([1, 2, 3, 4].map(grade)).toEqual(["A", "B", "C", "F"]);
    expect(sheet.shown('=IFS(A4>89,"A")')).toBe("#N/A");
  });

  it("should give LOOKUP's documented results, vector and array forms", () => {
    sheet = formulaSheet([
      [4.14, "red"],
      [4.19, "orange"],
      [5.17, "yellow"],
      [5.77, "green"],
      [6.39, "blue"],
    ]);
    expect(sheet.shown("=LOOKUP(4.19,A1:A5,B1:B5)")).toBe("orange");
    expect(sheet.shown("=LOOKUP(5.75,A1:A5,B1:B5)")).toBe("yellow");
    expect(sheet.shown("=LOOKUP(7.66,A1:A5,B1:B5)")).toBe("blue");
    expect(sheet.shown("=LOOKUP(0,A1:A5,B1:B5)")).toBe("#N/A");
    expect(sheet.shown('=LOOKUP("C",{"a","b","c","d";1,2,3,4})')).toBe(3);
    expect(sheet.shown('=LOOKUP("bump",{"a",1;"b",2;"c",3})')).toBe(2);
    expect(sheet.shown("=LOOKUP(5.2,A1:B5)")).toBe("yellow");
  });

  it("should find with LOOKUP the largest value not above the one looked up, in any ascending list", () => {
    sheet = formulaSheet([[]]);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: -60, max: 60 }),
        (values, lookup) => {
          const sorted = [...values].sort((a, b) => a - b);
          const found = sorted.filter((value) => value <= lookup).pop();
          const shown = sheet.shown(`=LOOKUP(${lookup},{${sorted.join(",")}})`);
          return shown === (found === undefined ? "#N/A" : found);
        }
      ),
      { numRuns: 100 }
    );
  });
});
