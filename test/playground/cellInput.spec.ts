import fc from "fast-check";
import { cellInput } from "../../playground/excel/cellInput.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";

/** Text a person may type: formulas, numbers, logical values, each maybe after apostrophes. */
const typed = fc
  .tuple(
    fc.constantFrom("", "'", "''", " '"),
    fc.constantFrom(
      "=1+2",
      '=SPELL.RUN("sentiment", SPELL.INPUTS("text", A5), "label")',
      "+1+1",
      "-A1",
      "@SUM(1)",
      "12",
      "1e3",
      "TRUE",
      "text",
      "",
      " =1"
    ),
    fc.constantFrom("", " ", "0")
  )
  .map((parts) => parts.join(""));

/**
 * Excel's apostrophe prefix (Microsoft, "Display or hide the apostrophe"): `'=1+2` is the text
 * "=1+2", shown without the apostrophe, edited with it. What the editor and the formula bar show
 * (cellInput), written back unchanged, is the same cell: text typed after an apostrophe never
 * becomes a formula (a SPELL.RUN that would start a paid run) by being edited or reopened.
 */
describe("cellInput", () => {
  it("should give back the input that makes the same cell again, and keep an apostrophe's text text, after any typing, editing and reopening (generated)", () => {
    fc.assert(
      fc.property(fc.array(typed, { minLength: 1, maxLength: 6 }), (inputs) => {
        const workbook = new MockWorkbook({ sheets: { Sheet1: [] } });
        // Thrown, not expected: fast-check then shrinks the inputs and prints its seed.
        const same = (what: string, actual: unknown, wanted: unknown) => {
          if (JSON.stringify(actual) !== JSON.stringify(wanted))
            throw new Error(`${what}: ${JSON.stringify(actual)}, not ${JSON.stringify(wanted)}`);
        };
        for (const input of inputs) {
          workbook.setValues("Sheet1", "B2", [[input]]);
          const cell = workbook.cell("Sheet1", "B2");
          if (input.startsWith("'")) {
            same(`the formula of ${input}`, cell.formula ?? null, null);
            same(`the value of ${input}`, cell.value, input.slice(1));
            same(`the input of ${input}`, cellInput(cell), input);
          }
          // Enter on the editor's text, unchanged: the same cell.
          workbook.setValues("Sheet1", "B2", [[cellInput(cell)]]);
          same(`${input} entered again`, workbook.cell("Sheet1", "B2"), cell);
          // Saved and opened again (a reload): the same cell.
          const reopened = MockWorkbook.fromSnapshot(
            JSON.parse(JSON.stringify(workbook.snapshot())) as ReturnType<MockWorkbook["snapshot"]>
          );
          same(`${input} reopened`, reopened.cell("Sheet1", "B2"), cell);
        }
      })
    );
  });

  it("should show a formula as typed and plain text as it is", () => {
    expect(cellInput({ value: 3, formula: "=1+2", numberFormat: "General" })).toBe("=1+2");
    expect(cellInput({ value: "=1+2", quotePrefix: true, numberFormat: "General" })).toBe("'=1+2");
    expect(cellInput({ value: 12, numberFormat: "General" })).toBe("12");
  });
});
