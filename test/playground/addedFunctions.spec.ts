import { FormulaEngine } from "../../playground/formulas/formulaEngine.js";
import { CustomFunctionsRuntime } from "../../playground/functions/customFunctionsRuntime.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";

/**
 * The functions the playground adds to fast-formula-parser (or puts in place of its own), each
 * with results Microsoft documents. Row 1 holds: A1 "abc", B1 empty, C1 5, D1 " x  y ", E1 TRUE,
 * F1 "#N/A".
 */
const examples: [formula: string, shown: MockCellValue][] = [
  ["=UPPER(A1)", "ABC"],
  ['=SUBSTITUTE("a-b-c","-","+")', "a+b+c"],
  ['=SUBSTITUTE("a-b-c","-","+",2)', "a-b+c"],
  ['=SUBSTITUTE("a-b-c","-","+",3)', "a-b-c"],
  ['=SUBSTITUTE("a-b-c","-","+",0)', "#VALUE!"],
  ['=SUBSTITUTE("abc","","+")', "abc"],
  ['=TEXTJOIN(", ",TRUE,A1:D1)', "abc, 5,  x  y "],
  ['=TEXTJOIN(", ",FALSE,A1:C1)', "abc, , 5"],
  ['=VALUE("1,234.5")', 1234.5],
  ['=VALUE("12%")', 0.12],
  ['=VALUE("(3)")', -3],
  ['=VALUE("$4")', 4],
  ['=VALUE("abc")', "#VALUE!"],
  ['=VALUE("")', "#VALUE!"],
  ["=VALUE(B1)", 0],
  ["=TRIM(D1)", "x y"],
  ['=MID("abc",2,0)', ""],
  ['=MID("abc",2,5)', "bc"],
  ['=MID("abc",0,1)', "#VALUE!"],
  ['=MID("abc",1,-1)', "#VALUE!"],
  ['=IF(C1,"yes","no")', "yes"],
  ['=IF(B1,"yes","no")', "no"],
  ['=IF(A1,"yes","no")', "#VALUE!"],
  ['=IF(E1,"yes","no")', "yes"],
  ['=IF(F1,"yes","no")', "#N/A"],
  ["=IF(FALSE,1)", false],
  ["=IF(TRUE,B1)", 0],
  ["=MAX(A1:E1)", 5],
  ["=MAX(B1)", 0],
  ["=MAX(-5,B1)", -5],
  ['=MIN(C1,"3",TRUE)', 1],
  ['=MAX("x")', "#VALUE!"],
  ["=MAX(C1:F1)", "#N/A"],
  ["=COUNTA(A1:F1)", 5],
  ['=COUNTA(1,"",B1)', 2],
  ['=SEARCH("B","ab")', 2],
  ['=SEARCH("b","aBc")', 2],
  ['=SEARCH("a?c","xabc")', 2],
  ['=SEARCH("*c","xxc")', 1],
  ['=SEARCH("~?","a?")', 2],
  ['=SEARCH("(","a(b")', 2],
  ['=SEARCH("b","abcb",3)', 4],
  ['=SEARCH("b","abc",0)', "#VALUE!"],
  ['=SEARCH("z","abc")', "#VALUE!"],
  ['=SEARCHB("B","ab")', 2],
  ['=FIND("B","ab")', "#VALUE!"],
];

describe("Functions the playground adds to the formula parser", () => {
  let workbook: MockWorkbook;
  let stop: () => void;

  beforeAll(() => {
    workbook = new MockWorkbook({
      sheets: { Sheet1: [["abc", "", 5, " x  y ", true, "#N/A"]] },
    });
    stop = new FormulaEngine(workbook, new CustomFunctionsRuntime([], "TEST")).start();
  });
  afterAll(() => stop());

  it("should give Microsoft's documented results", () => {
    const shown = examples.map(([formula]) => {
      workbook.setValues("Sheet1", "A3", [[formula]]);
      return [formula, workbook.cell("Sheet1", "A3").value];
    });
    expect(shown).toEqual(examples);
  });
});
