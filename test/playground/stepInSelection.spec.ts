import fc from "fast-check";
import { stepInSelection, type SelectionStep } from "../../playground/grid/stepInSelection.js";

/**
 * Excel's Enter and Tab within a selected range (Microsoft, "Keyboard shortcuts in Excel"): Enter
 * goes down the columns, Tab along the rows (down a single column), each wrapping at the range's
 * end; Shift takes them back.
 */
describe("stepInSelection", () => {
  const range = { top: 2, left: 1, rowCount: 3, columnCount: 2 }; // B3:C5

  it("should go down the columns with Enter, on to the next column's top, and back to the first cell", () => {
    const visited = [{ row: 2, column: 1 }];
    for (let step = 0; step < 6; step++)
      visited.push(stepInSelection(range, visited[visited.length - 1], "down"));
    expect(visited.map(({ row, column }) => `${"ABC"[column]}${row + 1}`)).toEqual([
      "B3",
      "B4",
      "B5",
      "C3",
      "C4",
      "C5",
      "B3",
    ]);
  });

  it("should go along the rows with Tab, and down a single column", () => {
    expect(stepInSelection(range, { row: 2, column: 2 }, "right")).toEqual({ row: 3, column: 1 });
    expect(stepInSelection(range, { row: 2, column: 1 }, "left")).toEqual({ row: 4, column: 2 });
    const column = { top: 0, left: 3, rowCount: 4, columnCount: 1 };
    expect(stepInSelection(column, { row: 1, column: 3 }, "right")).toEqual({ row: 2, column: 3 });
    const row = { top: 6, left: 0, rowCount: 1, columnCount: 3 };
    expect(stepInSelection(row, { row: 6, column: 2 }, "down")).toEqual({ row: 6, column: 0 });
  });

  it("should stay in the range, visit every cell once a round, and be undone by its Shift key", () => {
    const back: Record<SelectionStep, SelectionStep> = {
      down: "up",
      up: "down",
      right: "left",
      left: "right",
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom<SelectionStep>("down", "up", "right", "left"),
        (rowCount, columnCount, step) => {
          const block = { top: 10, left: 4, rowCount, columnCount };
          const seen = new Set<string>();
          let cell = { row: 10, column: 4 };
          for (let i = 0; i < rowCount * columnCount; i++) {
            const next = stepInSelection(block, cell, step);
            expect(stepInSelection(block, next, back[step])).toEqual(cell);
            expect(next.row - 10).toBeLessThan(rowCount);
            expect(next.column - 4).toBeLessThan(columnCount);
            expect(Math.min(next.row - 10, next.column - 4)).toBeGreaterThanOrEqual(0);
            seen.add(`${next.row},${next.column}`);
            cell = next;
          }
          expect(seen.size).toBe(rowCount * columnCount);
          expect(cell).toEqual({ row: 10, column: 4 });
        }
      )
    );
  });
});
