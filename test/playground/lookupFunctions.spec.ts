import fc from "fast-check";
import { formulaSheet } from "./support/formulaSheet.js";
import type { FormulaSheet } from "./support/formulaSheet.js";

/**
 * MATCH, VLOOKUP, HLOOKUP and XLOOKUP in the playground, with the examples of Microsoft's pages
 * of each (their data, their formulas, their results) and the rules those pages state.
 */
describe("Lookup functions in the playground (Microsoft's examples)", () => {
  let sheet: FormulaSheet;
  afterEach(() => sheet.stop());

  it("should give MATCH's documented results: next lowest for 1, exact for 0, #N/A for -1 over ascending data", () => {
    // MATCH's example: Product / Count.
    sheet = formulaSheet([
      ["Product", "Count"],
      ["Bananas", 25],
      ["Oranges", 38],
      ["Apples", 40],
      ["Pears", 41],
    ]);
    expect(sheet.shown("=MATCH(39,B2:B5,1)")).toBe(2);
    expect(sheet.shown("=MATCH(41,B2:B5,0)")).toBe(4);
    expect(sheet.shown("=MATCH(40,B2:B5,-1)")).toBe("#N/A");
    expect(sheet.shown("=MATCH(39,B2:B5)")).toBe(2);
    // "MATCH does not distinguish between uppercase and lowercase letters"; wildcards with 0.
    expect(sheet.shown('=MATCH("APPLES",A2:A5,0)')).toBe(3);
    expect(sheet.shown('=MATCH("?ranges",A2:A5,0)')).toBe(2);
    expect(sheet.shown('=MATCH("p*",A2:A5,0)')).toBe(4);
    expect(sheet.shown('=MATCH("an*",A2:A5,0)')).toBe("#N/A");
    expect(sheet.shown('=MATCH("Kiwis",A2:A5,0)')).toBe("#N/A");
    expect(sheet.shown('=IFNA(MATCH("Kiwis",A2:A5,0),"none")')).toBe("none");
    expect(sheet.shown('=INDEX(B2:B5,MATCH("pears",A2:A5,0))')).toBe(41);
    // The number 25 is not the text "25".
    expect(sheet.shown('=MATCH("25",B2:B5,0)')).toBe("#N/A");
  });

  it("should find an actual * or ? after a tilde (~), and take them as wildcards otherwise", () => {
    sheet = formulaSheet([["a*c"], ["abc"], ["a?c"]]);
    expect(sheet.shown('=MATCH("a~*c",A1:A3,0)')).toBe(1);
    expect(sheet.shown('=MATCH("a~?c",A1:A3,0)')).toBe(3);
    expect(sheet.shown('=MATCH("A?C",A1:A3,0)')).toBe(1);
  });

  it("should give VLOOKUP's documented results over the density table", () => {
    sheet = formulaSheet([
      ["Density", "Viscosity", "Temperature"],
      [0.457, 3.55, 500],
      [0.525, 3.25, 400],
      [0.606, 2.93, 300],
      [0.675, 2.75, 250],
      [0.746, 2.57, 200],
      [0.835, 2.38, 150],
      [0.946, 2.17, 100],
      [1.09, 1.95, 50],
      [1.29, 1.71, 0],
    ]);
    expect(sheet.shown("=VLOOKUP(1,A2:C10,2)")).toBe(2.17);
    expect(sheet.shown("=VLOOKUP(1,A2:C10,3,TRUE)")).toBe(100);
    expect(sheet.shown("=VLOOKUP(0.7,A2:C10,3,FALSE)")).toBe("#N/A");
    expect(sheet.shown("=VLOOKUP(0.1,A2:C10,2,TRUE)")).toBe("#N/A");
    expect(sheet.shown("=VLOOKUP(2,A2:C10,2,TRUE)")).toBe(1.71);
    expect(sheet.shown("=VLOOKUP(1,A2:C10,0)")).toBe("#VALUE!");
    expect(sheet.shown("=VLOOKUP(1,A2:C10,4)")).toBe("#REF!");
  });

  it("should match text in VLOOKUP's exact match without regard to case, wildcards over the whole cell", () => {
    sheet = formulaSheet([
      ["Banana", 20],
      ["bandana", 30],
      ["Cherry", ""],
    ]);
    expect(sheet.shown('=VLOOKUP("banana",A1:B3,2,FALSE)')).toBe(20);
    expect(sheet.shown('=VLOOKUP("BAND*",A1:B3,2,FALSE)')).toBe(30);
    expect(sheet.shown('=VLOOKUP("*ana",A1:B3,2,FALSE)')).toBe(20);
    expect(sheet.shown('=VLOOKUP("an*",A1:B3,2,FALSE)')).toBe("#N/A");
    // An empty cell found shows 0, as in Excel.
    expect(sheet.shown('=VLOOKUP("cherry",A1:B3,2,FALSE)')).toBe(0);
  });

  it("should give HLOOKUP's documented results over the axles table", () => {
    sheet = formulaSheet([
      ["Axles", "Bearings", "Bolts"],
      [4, 4, 9],
      [5, 7, 10],
      [6, 8, 11],
    ]);
    expect(sheet.shown('=HLOOKUP("Axles",A1:C4,2,TRUE)')).toBe(4);
    expect(sheet.shown('=HLOOKUP("Bearings",A1:C4,3,FALSE)')).toBe(7);
    expect(sheet.shown('=HLOOKUP("B",A1:C4,3,TRUE)')).toBe(5);
    expect(sheet.shown('=HLOOKUP("Bolts",A1:C4,4)')).toBe(11);
    expect(sheet.shown('=HLOOKUP(3,{1,2,3;"a","b","c";"d","e","f"},2,TRUE)')).toBe("c");
    expect(sheet.shown('=HLOOKUP("bearings",A1:C4,2,FALSE)')).toBe(4);
  });

  it("should give XLOOKUP's results: if_not_found, next smaller or larger, wildcards in mode 2 only, from the last", () => {
    sheet = formulaSheet([
      ["Brazil", "BR", 10],
      ["china", "CN", 20],
      ["Chile", "CL", 30],
      ["c*", "star", 40],
      ["Brazil", "BR again", 50],
    ]);
    expect(sheet.shown('=XLOOKUP("CHINA",A1:A5,B1:B5)')).toBe("CN");
    expect(sheet.shown('=XLOOKUP("Peru",A1:A5,B1:B5)')).toBe("#N/A");
    expect(sheet.shown('=XLOOKUP("Peru",A1:A5,B1:B5,"not found")')).toBe("not found");
    // Exact match (0) takes * as it is; wildcard match (2) does not.
    expect(sheet.shown('=XLOOKUP("c*",A1:A5,B1:B5)')).toBe("star");
    expect(sheet.shown('=XLOOKUP("c*",A1:A5,B1:B5,,2)')).toBe("CN");
    expect(sheet.shown('=XLOOKUP("Brazil",A1:A5,B1:B5,,0,-1)')).toBe("BR again");
    expect(sheet.shown("=XLOOKUP(25,C1:C5,B1:B5,,-1)")).toBe("CN");
    expect(sheet.shown("=XLOOKUP(25,C1:C5,B1:B5,,1)")).toBe("CL");
    expect(sheet.shown("=XLOOKUP(60,C1:C5,B1:B5,,1)")).toBe("#N/A");
    // A row of several cells spills.
    expect(sheet.shown('=XLOOKUP("chile",A1:A5,B1:C5)', 1, 2)).toEqual([["CL", 30]]);
    expect(sheet.shown('=XLOOKUP("chile",A1:A5,B1:B4)')).toBe("#VALUE!");
  });

  it("should give XMATCH's and CHOOSE's documented results", () => {
    sheet = formulaSheet([["Gra"], ["Grape"], ["Grapefruit"], ["Grape"]]);
    expect(sheet.shown("=XMATCH(4,{5,4,3,2,1})")).toBe(2);
    expect(sheet.shown("=XMATCH(4.5,{5,4,3,2,1},1)")).toBe(1);
    expect(sheet.shown('=XMATCH("grape",A1:A4)')).toBe(2);
    expect(sheet.shown('=XMATCH("grape",A1:A4,0,-1)')).toBe(4);
    expect(sheet.shown('=XMATCH("gra*",A1:A4,2)')).toBe(1);
    expect(sheet.shown('=XMATCH("melon",A1:A4)')).toBe("#N/A");
    expect(sheet.shown('=CHOOSE(2,"1st","2nd","3rd","Finished")')).toBe("2nd");
    expect(sheet.shown("=CHOOSE(3,A1,A2,A3)")).toBe("Grapefruit");
    expect(sheet.shown('=CHOOSE(5,"1st","2nd")')).toBe("#VALUE!");
    expect(sheet.shown("=SUM(CHOOSE(1,{1,2,3},{4}))")).toBe(6);
  });

  it("should find in MATCH the first cell equal to the text without regard to case, else #N/A (generated lists)", () => {
    sheet = formulaSheet([]);
    const word = fc.constantFrom("apple", "Apple", "APPLE", "pear", "Pear", "fig", "");
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), word, (list, sought) => {
        fc.pre(sought !== "");
        sheet.fill([
          ...list.map((item) => [item]),
          ...Array.from({ length: 8 - list.length }, () => [""]),
        ]);
        const at = list.findIndex((item) => item.toLowerCase() === sought.toLowerCase());
        expect(sheet.shown(`=MATCH("${sought}",A1:A${list.length},0)`)).toBe(
          at < 0 ? "#N/A" : at + 1
        );
      }),
      { numRuns: 60 }
    );
  });
});
