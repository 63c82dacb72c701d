import { formulaSheet } from "./support/formulaSheet.js";
import type { FormulaSheet } from "./support/formulaSheet.js";

/**
 * UNIQUE, FILTER, SORT and SEQUENCE, and the operators over ranges, in the playground: their
 * results spill from the formula's cell as in dynamic-array Excel (Microsoft, "Dynamic array
 * formulas and spilled array behavior": "Formulas that can return arrays of variable size are
 * called dynamic array formulas"), #SPILL! while a cell is in the way, #CALC! for an empty result.
 */
describe("Dynamic-array functions in the playground", () => {
  let sheet: FormulaSheet;
  beforeEach(() => {
    sheet = formulaSheet([
      ["Name", "Region", "Sales"],
      ["Ann", "East", 12],
      ["bob", "West", 5],
      ["ANN", "east", 8],
      ["Cid", "North", ""],
      ["Bob", "West", 20],
    ]);
  });
  afterEach(() => sheet.stop());

  it("should give UNIQUE's rows, text compared without regard to case, exactly_once and by_col", () => {
    expect(sheet.shown("=UNIQUE(A2:A6)", 3)).toEqual([["Ann"], ["bob"], ["Cid"]]);
    expect(sheet.shown("=UNIQUE(A2:B6)", 4, 2)).toEqual([
      ["Ann", "East"],
      ["bob", "West"],
      ["Cid", "North"],
      ["", ""],
    ]);
    expect(sheet.shown("=UNIQUE(A2:A6,FALSE,TRUE)", 2)).toEqual([["Cid"], [""]]);
    expect(sheet.shown("=UNIQUE({1,2,1,3},TRUE)", 1, 4)).toEqual([[1, 2, 3, ""]]);
    expect(sheet.shown("=UNIQUE({1;1},FALSE,TRUE)")).toBe("#CALC!");
  });

  it("should give FILTER's rows where include is TRUE, if_empty or #CALC! when none", () => {
    expect(sheet.shown('=FILTER(A2:A6,B2:B6="west")', 3)).toEqual([["bob"], ["Bob"], [""]]);
    expect(sheet.shown("=FILTER(A2:C6,C2:C6>10)", 2, 3)).toEqual([
      ["Ann", "East", 12],
      ["Bob", "West", 20],
    ]);
    expect(sheet.shown('=FILTER(A2:A6,C2:C6>100,"none")')).toBe("none");
    expect(sheet.shown("=FILTER(A2:A6,C2:C6>100)")).toBe("#CALC!");
    expect(sheet.shown("=FILTER(A2:A6,C2:C4>1)")).toBe("#VALUE!");
    // An empty cell of the array shows 0.
    expect(sheet.shown('=FILTER(C2:C6,A2:A6="cid")')).toBe(0);
  });

  it("should give SORT's order: ascending by default, -1 descending, by another column, empty cells last", () => {
    expect(sheet.shown("=SORT(A2:A6)", 5)).toEqual([["Ann"], ["ANN"], ["bob"], ["Bob"], ["Cid"]]);
    expect(sheet.shown("=SORT(C2:C6,1,-1)", 5)).toEqual([[20], [12], [8], [5], [0]]);
    expect(sheet.shown("=SORT(A2:C6,3)", 5, 1)).toEqual([
      ["bob"],
      ["ANN"],
      ["Ann"],
      ["Bob"],
      ["Cid"],
    ]);
    expect(sheet.shown('=SORT({3,"b",1,"A"},1,1,TRUE)', 1, 4)).toEqual([[1, 3, "A", "b"]]);
    expect(sheet.shown("=SORT(A2:C6,4)")).toBe("#VALUE!");
  });

  it("should resize a spill when its source gets values below the sheet's last used row, and read a range's empty cells", () => {
    // A user trial: =UNIQUE(C2:C7) on a new sheet, then a, b, c typed into C2:C4, showed only a
    // (the formula depended on the rows used when it was entered). Excel recalculates it.
    const empty = formulaSheet([]);
    empty.set("G1", "=UNIQUE(C2:C7)");
    empty.set("C2", "a");
    empty.set("C3", "b");
    empty.set("C4", "c");
    expect(empty.read("G1:G5")).toEqual([["a"], ["b"], ["c"], [0], [""]]);
    // "COUNTBLANK counts empty cells in a specified range of cells": all six here.
    expect(empty.shown("=COUNTBLANK(D2:D7)", 1, 1, "K1")).toBe(6);
    empty.set("D9", "x");
    expect(empty.shown("=COUNTA(D:D)", 1, 1, "K2")).toBe(1);
    empty.set("D20", "y");
    expect(empty.read("K2")).toEqual([[2]]);
    empty.stop();
  });

  it("should spill SEQUENCE, and SORT(UNIQUE(…)) nested", () => {
    expect(sheet.shown("=SEQUENCE(2,3,10,5)", 2, 3)).toEqual([
      [10, 15, 20],
      [25, 30, 35],
    ]);
    expect(sheet.shown("=SORT(UNIQUE(B2:B6),1,-1)", 3)).toEqual([["West"], ["North"], ["East"]]);
    expect(sheet.shown("=SEQUENCE(0)")).toBe("#CALC!");
  });

  it("should compare, join and compute ranges value by value, and spill the result", () => {
    expect(sheet.shown("=C2:C4>6", 3)).toEqual([[true], [false], [true]]);
    expect(sheet.shown('=A2:A3&"!"', 2)).toEqual([["Ann!"], ["bob!"]]);
    expect(sheet.shown("=C2:C3*{1,10}", 2, 2)).toEqual([
      [12, 120],
      [5, 50],
    ]);
    expect(sheet.shown("=SUM((C2:C6>6)*C2:C6)")).toBe(40);
    expect(sheet.shown('=SUMPRODUCT((B2:B6="west")*C2:C6)')).toBe(25);
    expect(sheet.shown("={1,2}+{10;20;30}", 3, 2)).toEqual([
      [11, 12],
      [21, 22],
      [31, 32],
    ]);
    expect(sheet.shown("={1,2,3}+{10,20}", 1, 3)).toEqual([[11, 22, "#N/A"]]);
  });

  it("should show #SPILL! while a cell is in the way, and spill once it is cleared", () => {
    sheet.set("L1", "x");
    expect(sheet.shown("=SEQUENCE(1,3)", 1, 3)).toEqual([["#SPILL!", "", "x"]]);
    sheet.set("L1", "");
    expect(sheet.read("J1:L1")).toEqual([[1, 2, 3]]);
  });
});
