import fc from "fast-check";
import { formulaSheet } from "./support/formulaSheet.js";
import type { FormulaSheet } from "./support/formulaSheet.js";

/**
 * COUNTIF, COUNTIFS, SUMIF, SUMIFS, AVERAGEIF and AVERAGEIFS in the playground, with the examples
 * of Microsoft's page of each (their data, formulas and results) and its criteria rules:
 * "Criteria aren't case sensitive", wildcards `?` and `*` over the whole cell, `~` before one to
 * find it as it is, `""` for empty cells.
 */
describe("Conditional functions in the playground (Microsoft's examples)", () => {
  let sheet: FormulaSheet;
  afterEach(() => sheet.stop());

  it("should give COUNTIF's documented results", () => {
    sheet = formulaSheet([
      ["Data", "Data"],
      ["apples", 32],
      ["oranges", 54],
      ["peaches", 75],
      ["apples", 86],
    ]);
    expect(sheet.shown('=COUNTIF(A2:A5,"apples")')).toBe(2);
    expect(sheet.shown("=COUNTIF(A2:A5,A4)")).toBe(1);
    expect(sheet.shown("=COUNTIF(A2:A5,A2)+COUNTIF(A2:A5,A3)")).toBe(3);
    expect(sheet.shown('=COUNTIF(B2:B5,">55")')).toBe(2);
    expect(sheet.shown('=COUNTIF(B2:B5,"<>"&B4)')).toBe(3);
    expect(sheet.shown('=COUNTIF(B2:B5,">=32")-COUNTIF(B2:B5,">85")')).toBe(3);
    expect(sheet.shown('=COUNTIF(A2:A5,"*")')).toBe(4);
    expect(sheet.shown('=COUNTIF(A2:A5,"?????es")')).toBe(2);
    // Not case sensitive; a wildcard pattern matches the whole cell.
    expect(sheet.shown('=COUNTIF(A2:A5,"APPLES")')).toBe(2);
    expect(sheet.shown('=COUNTIF(A2:A5,"a*")')).toBe(2);
    expect(sheet.shown('=COUNTIF(A2:A5,"*ches")')).toBe(1);
  });

  it('should count empty cells with "" and the others with "<>", and find ~* and ~? as they are', () => {
    sheet = formulaSheet([["b*n"], ["bean"], [""], ["a?"], [5]]);
    expect(sheet.shown('=COUNTIF(A1:A5,"")')).toBe(1);
    expect(sheet.shown('=COUNTIF(A1:A5,"<>")')).toBe(4);
    expect(sheet.shown('=COUNTIF(A1:A5,"b~*n")')).toBe(1);
    expect(sheet.shown('=COUNTIF(A1:A5,"b*n")')).toBe(2);
    expect(sheet.shown('=COUNTIF(A1:A5,"a~?")')).toBe(1);
    // A comparison with text takes only text, one with a number only numbers.
    expect(sheet.shown('=COUNTIF(A1:A5,">a")')).toBe(3);
    expect(sheet.shown('=COUNTIF(A1:A5,">1")')).toBe(1);
    expect(sheet.shown('=COUNTIF(A1:A5,"<>bean")')).toBe(4);
  });

  it("should give SUMIF's documented results, sum_range or not", () => {
    sheet = formulaSheet([
      ["Property Value", "Commission", "Data"],
      [100000, 7000, 250000],
      [200000, 14000, ""],
      [300000, 21000, ""],
      [400000, 28000, ""],
    ]);
    expect(sheet.shown('=SUMIF(A2:A5,">160000",B2:B5)')).toBe(63000);
    expect(sheet.shown('=SUMIF(A2:A5,">160000")')).toBe(900000);
    expect(sheet.shown("=SUMIF(A2:A5,300000,B2:B5)")).toBe(21000);
    expect(sheet.shown('=SUMIF(A2:A5,">"&C2,B2:B5)')).toBe(49000);
    // A sum_range of another size is read from its top-left cell in range's shape.
    expect(sheet.shown('=SUMIF(A2:A5,">160000",B2)')).toBe(63000);
  });

  it("should give SUMIF's documented results over categories: text, wildcards, empty category", () => {
    sheet = formulaSheet([
      ["Category", "Food", "Sales"],
      ["Vegetables", "Tomatoes", 2300],
      ["Vegetables", "Celery", 5500],
      ["Fruits", "Oranges", 800],
      ["", "Butter", 400],
      ["Vegetables", "Carrots", 4200],
      ["Fruits", "Apples", 1200],
    ]);
    expect(sheet.shown('=SUMIF(A2:A7,"Fruits",C2:C7)')).toBe(2000);
    expect(sheet.shown('=SUMIF(A2:A7,"Vegetables",C2:C7)')).toBe(12000);
    expect(sheet.shown('=SUMIF(B2:B7,"*es",C2:C7)')).toBe(4300);
    expect(sheet.shown('=SUMIF(A2:A7,"",C2:C7)')).toBe(400);
    expect(sheet.shown('=SUMIF(A2:A7,"fruits",C2:C7)')).toBe(2000);
  });

  it("should give COUNTIFS's documented results", () => {
    sheet = formulaSheet([
      ["Salesperson", "Exceeded Q1 quota", "Exceeded Q2 quota", "Exceeded Q3 quota"],
      ["Davidoski", "Yes", "No", "No"],
      ["Burke", "Yes", "Yes", "No"],
      ["Sundaram", "Yes", "Yes", "Yes"],
      ["Levitan", "No", "Yes", "Yes"],
    ]);
    expect(sheet.shown('=COUNTIFS(B2:D2,"=Yes")')).toBe(1);
    expect(sheet.shown('=COUNTIFS(B2:B5,"=Yes",C2:C5,"=Yes")')).toBe(2);
    expect(sheet.shown('=COUNTIFS(B5:D5,"=Yes",B3:D3,"=Yes")')).toBe(1);
    sheet.fill([[1], [2], [3], [4], [5], [6]]);
    expect(sheet.shown('=COUNTIFS(A1:A6,"<6",A1:A6,">1")')).toBe(4);
    // "Each additional range must have the same number of rows and columns".
    expect(sheet.shown('=COUNTIFS(A1:A6,"<6",A1:A5,">1")')).toBe("#VALUE!");
  });

  it("should give SUMIFS's documented results", () => {
    sheet = formulaSheet([
      ["Quantity Sold", "Product", "Salesperson"],
      [5, "Apples", "Tom"],
      [4, "Apples", "Sarah"],
      [15, "Artichokes", "Tom"],
      [3, "Artichokes", "Sarah"],
      [22, "Bananas", "Tom"],
      [12, "Bananas", "Sarah"],
      [10, "Carrots", "Tom"],
      [33, "Carrots", "Sarah"],
    ]);
    expect(sheet.shown('=SUMIFS(A2:A9,B2:B9,"=A*",C2:C9,"Tom")')).toBe(20);
    expect(sheet.shown('=SUMIFS(A2:A9,B2:B9,"<>Bananas",C2:C9,"Tom")')).toBe(30);
  });

  it("should give AVERAGEIF's and AVERAGEIFS's documented results, #DIV/0! when nothing meets them", () => {
    sheet = formulaSheet([
      ["Property Value", "Commission"],
      [100000, 7000],
      [200000, 14000],
      [300000, 21000],
      [400000, 28000],
    ]);
    expect(sheet.shown('=AVERAGEIF(B2:B5,"<23000")')).toBe(14000);
    expect(sheet.shown('=AVERAGEIF(A2:A5,"<250000")')).toBe(150000);
    expect(sheet.shown('=AVERAGEIF(A2:A5,"<95000")')).toBe("#DIV/0!");
    expect(sheet.shown('=AVERAGEIF(A2:A5,">250000",B2:B5)')).toBe(24500);
    sheet.fill([
      ["Region", "Profits (Thousands)"],
      ["East", 45678],
      ["West", 23789],
      ["North", -4789],
      ["South (New Office)", 0],
      ["MidWest", 9678],
    ]);
    expect(sheet.shown('=AVERAGEIF(A2:A6,"=*West",B2:B6)')).toBe(16733.5);
    expect(sheet.shown('=AVERAGEIF(A2:A6,"<>*(New Office)",B2:B6)')).toBe(18589);
    sheet.fill([
      ["Student", "First Quiz", "Second Quiz", "Final Exam"],
      ["Emilio", 75, 85, 87],
      ["Julie", 94, 80, 88],
      ["Hans", 86, 93, "Incomplete"],
      ["Frederique", "Incomplete", 75, 75],
    ]);
    expect(sheet.shown('=AVERAGEIFS(B2:B5,B2:B5,">70",B2:B5,"<90")')).toBe(80.5);
    expect(sheet.shown('=AVERAGEIFS(C2:C5,C2:C5,">95")')).toBe("#DIV/0!");
    expect(sheet.shown('=AVERAGEIFS(D2:D5,D2:D5,"<>Incomplete",D2:D5,">80")')).toBe(87.5);
  });

  it("should give MAXIFS's, MINIFS's and COUNTBLANK's documented results", () => {
    sheet = formulaSheet([
      ["Grade", "Weight"],
      [89, 1],
      [93, 2],
      [96, 2],
      [85, 3],
      [91, 1],
      [88, 1],
    ]);
    expect(sheet.shown("=MAXIFS(A2:A7,B2:B7,1)")).toBe(91);
    expect(sheet.shown("=MINIFS(A2:A7,B2:B7,1)")).toBe(88);
    // "If no cells meet the criteria, MAXIFS returns 0."
    expect(sheet.shown("=MAXIFS(A2:A7,B2:B7,9)")).toBe(0);
    expect(sheet.shown('=MAXIFS(A2:A7,B2:B7,">1",A2:A7,"<95")')).toBe(93);
    sheet.fill([
      ["Data", "Data"],
      [6, ""],
      ["", 27],
      [4, 34],
      [0, ""],
    ]);
    // Empty cells and "" are counted, zeros are not.
    expect(sheet.shown("=COUNTBLANK(A2:B5)")).toBe(3);
  });

  it("should count the cells a wildcard pattern matches whole, case ignored, as a matcher of Excel's rule does (generated)", () => {
    sheet = formulaSheet([]);
    /** Excel's rule read plainly: ? one character, * any run, ~ before ? * ~ the character itself. */
    const matches = (pattern: string, text: string): boolean => {
      if (pattern === "") return text === "";
      const [head, next] = [pattern[0], pattern[1]];
      if (head === "~" && (next === "?" || next === "*" || next === "~")) {
        return text[0] === next && matches(pattern.slice(2), text.slice(1));
      }
      if (head === "*")
        return [...Array(text.length + 1).keys()].some((i) =>
          matches(pattern.slice(1), text.slice(i))
        );
      if (text === "") return false;
      if (head === "?") return matches(pattern.slice(1), text.slice(1));
      return (
        head.toLowerCase() === text[0].toLowerCase() && matches(pattern.slice(1), text.slice(1))
      );
    };
    const text = (chars: string, minLength: number) =>
      fc.array(fc.constantFrom(...chars), { minLength, maxLength: 5 }).map((list) => list.join(""));
    fc.assert(
      fc.property(
        fc.array(text("aAb*?~", 0), { minLength: 8, maxLength: 8 }),
        text("ab*?~", 1),
        (cells, pattern) => {
          sheet.fill(cells.map((cell) => [cell]));
          const expected = cells.filter((cell) => cell !== "" && matches(pattern, cell)).length;
          expect(sheet.shown(`=COUNTIF(A1:A8,"${pattern}")`)).toBe(expected);
          expect(sheet.shown(`=COUNTIF(A1:A8,"<>${pattern}")`)).toBe(8 - expected);
        }
      ),
      { numRuns: 150 }
    );
  });

  it("should count and sum by a comparison with a number as a model does (generated columns)", () => {
    sheet = formulaSheet([]);
    const cell = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constantFrom("", "x", "Yes"));
    const operator = fc.constantFrom("<", ">", "<=", ">=", "=", "<>");
    fc.assert(
      fc.property(
        fc.array(cell, { minLength: 10, maxLength: 10 }),
        operator,
        fc.integer({ min: -20, max: 20 }),
        (cells, op, n) => {
          sheet.fill(cells.map((value) => [value, 1]));
          const meets = (value: unknown) => {
            if (op === "<>") return value !== n;
            if (typeof value !== "number") return false;
            return {
              "<": value < n,
              ">": value > n,
              "<=": value <= n,
              ">=": value >= n,
              "=": value === n,
            }[op];
          };
          const count = cells.filter(meets).length;
          expect(sheet.shown(`=COUNTIF(A1:A10,"${op}${n}")`)).toBe(count);
          expect(sheet.shown(`=SUMIF(A1:A10,"${op}${n}",B1:B10)`)).toBe(count);
          const numbers = cells.filter(
            (value) => typeof value === "number" && meets(value)
          ) as number[];
          expect(sheet.shown(`=SUMIFS(A1:A10,A1:A10,"${op}${n}")`)).toBe(
            numbers.reduce((a, b) => a + b, 0)
          );
        }
      ),
      { numRuns: 80 }
    );
  });
});
