import fc from "fast-check";
import { FormulaEngine } from "../../playground/formulas/formulaEngine.js";
import { CustomFunctionsRuntime } from "../../playground/functions/customFunctionsRuntime.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";

/** An argument of a text function: text, or a whole number (count, position). */
type Kind = "text" | "number";
type Model = (args: (string | number)[]) => MockCellValue | undefined;

const proper = (text: string) =>
  text.toLowerCase().replace(/(^|[^a-z])([a-z])/g, (_, before: string, letter: string) => {
    return before + letter.toUpperCase();
  });
const find = (needle: string, within: string, caseless: boolean): MockCellValue | undefined => {
  if (needle === "") return within === "" ? undefined : 1;
  const at = caseless ? within.toLowerCase().indexOf(needle.toLowerCase()) : within.indexOf(needle);
  return at < 0 ? "#VALUE!" : at + 1;
};

/**
 * Text functions and operators × Excel's results: each formula reads A1, B1, C1 as its arguments;
 * an empty cell is "" where text is wanted and 0 where a number is. The models follow Microsoft's
 * pages of each function (FIND: "If find_text is "" (empty text), FIND matches the first
 * character in the search string"; TRIM: "Removes all spaces from text except for single spaces
 * between words"; TEXTJOIN: "If TRUE, ignores empty cells"). A model that returns `undefined`
 * leaves a case Microsoft does not document unchecked.
 */
const table: { formula: string; kinds: Kind[]; model: Model }[] = [
  { formula: "=LEN(A1)", kinds: ["text"], model: ([t]) => String(t).length },
  { formula: "=A1&B1", kinds: ["text", "text"], model: ([a, b]) => `${a}${b}` },
  {
    formula: "=A1=B1",
    kinds: ["text", "text"],
    model: ([a, b]) => String(a).toLowerCase() === String(b).toLowerCase(),
  },
  { formula: "=LOWER(A1)", kinds: ["text"], model: ([t]) => String(t).toLowerCase() },
  { formula: "=UPPER(A1)", kinds: ["text"], model: ([t]) => String(t).toUpperCase() },
  { formula: "=PROPER(A1)", kinds: ["text"], model: ([t]) => proper(String(t)) },
  {
    formula: "=TRIM(A1)",
    kinds: ["text"],
    model: ([t]) => String(t).replace(/ +/g, " ").trim(),
  },
  {
    formula: "=LEFT(A1,B1)",
    kinds: ["text", "number"],
    model: ([t, n]) => String(t).slice(0, Number(n)),
  },
  {
    formula: "=RIGHT(A1,B1)",
    kinds: ["text", "number"],
    model: ([t, n]) => String(t).slice(Math.max(0, String(t).length - Number(n))),
  },
  {
    formula: "=MID(A1,B1,C1)",
    kinds: ["text", "number", "number"],
    model: ([t, s, n]) =>
      Number(s) < 1 ? "#VALUE!" : String(t).slice(Number(s) - 1, Number(s) - 1 + Number(n)),
  },
  {
    formula: "=CONCATENATE(A1,B1,C1)",
    kinds: ["text", "text", "text"],
    model: (args) => args.join(""),
  },
  { formula: "=CONCAT(A1:C1)", kinds: ["text", "text", "text"], model: (args) => args.join("") },
  {
    formula: '=TEXTJOIN("-",TRUE,A1:C1)',
    kinds: ["text", "text", "text"],
    model: (args) => args.filter((arg) => arg !== "").join("-"),
  },
  {
    formula: '=TEXTJOIN("-",FALSE,A1,B1,C1)',
    kinds: ["text", "text", "text"],
    model: (args) => args.join("-"),
  },
  {
    formula: "=SUBSTITUTE(A1,B1,C1)",
    kinds: ["text", "text", "text"],
    model: ([t, o, n]) => (o === "" ? t : String(t).split(String(o)).join(String(n))),
  },
  {
    formula: "=FIND(A1,B1)",
    kinds: ["text", "text"],
    model: ([f, t]) => find(String(f), String(t), false),
  },
  {
    formula: "=SEARCH(A1,B1)",
    kinds: ["text", "text"],
    model: ([f, t]) => find(String(f), String(t), true),
  },
  { formula: "=EXACT(A1,B1)", kinds: ["text", "text"], model: ([a, b]) => a === b },
  {
    formula: "=REPT(A1,B1)",
    kinds: ["text", "number"],
    model: ([t, n]) => String(t).repeat(Number(n)),
  },
  { formula: "=VALUE(A1)", kinds: ["number"], model: ([n]) => n },
];

describe('Empty cells in formulas (Excel: "" in text, 0 in numbers)', () => {
  let workbook: MockWorkbook;
  let stop: () => void;

  beforeAll(() => {
    workbook = new MockWorkbook({ sheets: { Sheet1: [["", "", ""]] } });
    stop = new FormulaEngine(workbook, new CustomFunctionsRuntime([], "TEST")).start();
  });
  afterAll(() => stop());

  const evaluate = (formula: string, cells: MockCellValue[]): MockCellValue => {
    workbook.setValues("Sheet1", "A1", [[...cells, ...Array<string>(3 - cells.length).fill("")]]);
    workbook.setValues("Sheet1", "A3", [[formula]]);
    return workbook.cell("Sheet1", "A3").value;
  };

  it('should read an empty cell as "" in text functions: =LEN(B5) of an empty B5 is 0', () => {
    expect(evaluate("=LEN(B5)", [])).toBe(0);
    expect(evaluate("=LEN(A1)", [""])).toBe(0);
    expect(evaluate('=A1&"x"', [""])).toBe("x");
    expect(evaluate("=CONCATENATE(A1,B1)", ["ab", ""])).toBe("ab");
    expect(evaluate('=A1=""', [""])).toBe(true);
  });

  it("should read an empty cell as 0 in numbers and FALSE in logical tests, and show 0 for =A1", () => {
    expect(evaluate("=A1", [""])).toBe(0);
    expect(evaluate("=ABS(A1)", [""])).toBe(0);
    expect(evaluate('=TEXT(A1,"0.0")', [""])).toBe("0.0");
    expect(evaluate("=NOT(A1)", [""])).toBe(true);
    expect(evaluate('=IF(A1,"yes","no")', [""])).toBe("no");
    expect(evaluate('=IF(A1,"yes","no")', [0])).toBe("no");
    expect(evaluate('=IF(A1,"yes","no")', [2])).toBe("yes");
    expect(evaluate("=A1=0", [""])).toBe(true);
    expect(evaluate("=A1=FALSE", [""])).toBe(true);
  });

  it("should compare text without regard to case, as Excel's = does (EXACT is the case-sensitive test)", () => {
    expect(evaluate("=A1=B1", ["Yes", "yes"])).toBe(true);
    expect(evaluate('=A1>"a"', ["B"])).toBe(true);
    expect(evaluate("=EXACT(A1,B1)", ["Yes", "yes"])).toBe(false);
  });

  it("should give every text function Excel's result for empty and filled arguments (generated)", () => {
    const text = fc.stringMatching(/^[abAB x]{0,6}$/);
    const count = fc.integer({ min: 0, max: 4 });
    const testCase = fc.constantFrom(...table).chain((row) =>
      fc.record({
        row: fc.constant(row),
        args: fc.tuple(
          ...row.kinds.map((kind) =>
            fc.record({ empty: fc.boolean(), value: kind === "text" ? text : count })
          )
        ),
      })
    );
    fc.assert(
      fc.property(testCase, ({ row, args }) => {
        const cells = args.map(({ empty, value }) => (empty ? "" : value));
        const read = args.map(({ empty, value }, i) =>
          empty ? (row.kinds[i] === "text" ? "" : 0) : value
        );
        const expected = row.model(read);
        const shown = evaluate(row.formula, cells);
        return expected === undefined || shown === expected;
      }),
      { numRuns: 400 }
    );
  });
});
