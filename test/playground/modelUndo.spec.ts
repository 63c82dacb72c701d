import fc from "fast-check";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { inputAt } from "../../playground/grid/gridEdits.js";
import { ModelUndo } from "../../playground/grid/modelUndo.js";

const SIZE = 4;

/** Every input of the small sheet, row by row. */
function inputs(workbook: MockWorkbook): string[][] {
  return Array.from({ length: SIZE }, (_, row) =>
    Array.from({ length: SIZE }, (_, column) => inputAt(workbook, "Sheet1", row, column))
  );
}

type Action =
  | { kind: "type"; cells: { x: number; y: number; value: string }[] }
  | { kind: "undo" }
  | { kind: "redo" };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant("type" as const),
    cells: fc.array(
      fc.record({
        x: fc.nat(SIZE - 1),
        y: fc.nat(SIZE - 1),
        value: fc.constantFrom("", "a", "b", "7", "12"),
      }),
      { minLength: 1, maxLength: 5 }
    ),
  }),
  fc.constant({ kind: "undo" as const }),
  fc.constant({ kind: "redo" as const })
);

describe("ModelUndo", () => {
  // Excel's undo walks back through a person's edits in order and redo forward again; an edit
  // made after an undo drops what was undone. Model: the sheet's states as a list and a cursor.
  it("should put the sheet back to each earlier state in order, and forward again, after any sequence of edits", () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        const workbook = new MockWorkbook({
          sheets: {
            Sheet1: [
              ["x", "1"],
              ["", "y"],
            ],
          },
        });
        const undo = new ModelUndo(workbook);
        const states = [inputs(workbook)];
        let at = 0;
        for (const next of actions) {
          if (next.kind === "type") {
            undo.type("Sheet1", next.cells);
            const now = inputs(workbook);
            // An edit that changed nothing is no step of the history.
            if (JSON.stringify(now) !== JSON.stringify(states[at])) {
              states.length = at + 1;
              states.push(now);
              at++;
            }
          } else if (next.kind === "undo") {
            if ((undo.undo() !== undefined) !== at > 0) return false;
            if (at > 0) at--;
          } else {
            if ((undo.redo() !== undefined) !== at < states.length - 1) return false;
            if (at < states.length - 1) at++;
          }
          // Checked after every step (a failure prints its seed and the shortest such sequence).
          if (JSON.stringify(inputs(workbook)) !== JSON.stringify(states[at])) return false;
        }
        return true;
      }),
      { numRuns: 200 }
    );
  });

  // Excel: a cell typed into a spill range blocks the spill (#SPILL!); undoing the typing empties
  // the cell again and the formula spills, no copy of its result left as a plain value.
  it("should undo a cell typed into a spill range to empty, not to the spilled value", () => {
    const workbook = new MockWorkbook({ sheets: { Sheet1: [] } });
    workbook.setSpill("Sheet1", "B1", '=SPELL.BULK("s", A1:A3)', [["one"], ["two"], ["three"]]);
    const undo = new ModelUndo(workbook);
    undo.type("Sheet1", [
      { x: 1, y: 1, value: "mine" },
      { x: 2, y: 1, value: "beside" },
    ]);
    undo.type("Sheet1", [{ x: 1, y: 0, value: "anchor typed over" }]);
    undo.undo();
    expect(workbook.cell("Sheet1", "B1").formula).toBe('=SPELL.BULK("s", A1:A3)');
    undo.undo();
    expect(inputAt(workbook, "Sheet1", 1, 1)).toBe("");
    expect(inputAt(workbook, "Sheet1", 1, 2)).toBe("");
  });

  it("should forget every edit on clear", () => {
    const workbook = new MockWorkbook({ sheets: { Sheet1: [["x"]] } });
    const undo = new ModelUndo(workbook);
    undo.type("Sheet1", [{ x: 0, y: 0, value: "new" }]);
    undo.clear();
    expect(undo.undo()).toBeUndefined();
    expect(inputAt(workbook, "Sheet1", 0, 0)).toBe("new");
  });
});
