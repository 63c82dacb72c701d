import fc from "fast-check";
import { columnName } from "../../playground/excel/a1.js";
import type { ModelSelection } from "../../playground/grid/gridSelection.js";
import {
  fillSelection,
  fillsSelection,
  type SelectionFillGrid,
} from "../../playground/grid/selectionFill.js";

/** A grid holding one selection, recording the edits written. */
function fakeGrid(selection: ModelSelection): {
  grid: SelectionFillGrid;
  edits: { x: number; y: number; value: string }[][];
} {
  const edits: { x: number; y: number; value: string }[][] = [];
  return {
    edits,
    grid: {
      activeSheet: () => "Sheet1",
      selectionOf: () => selection,
      typeCells: (_sheet, cells) => void edits.push([...cells]),
    },
  };
}

// Microsoft, "Keyboard shortcuts in Excel": "Ctrl+Enter: Fill the selected cell range with the
// current entry"; a formula's relative references move per cell, as a fill moves them.
describe("fillSelection (Ctrl+Enter over several selected cells)", () => {
  it("should fill every selected cell, references moved from the active cell, as one edit", () => {
    // F2:G4 selected, Enter having moved the active cell to F3, where "=A3*$B$1" was typed.
    const { grid, edits } = fakeGrid({
      anchor: { row: 1, column: 5 },
      end: { row: 3, column: 6 },
      active: { row: 2, column: 5 },
    });
    expect(fillsSelection(grid)).toBe(true);
    fillSelection(grid, "=A3*$B$1");
    expect(edits.length).toBe(1);
    const written = new Map(edits[0].map((cell) => [`${columnName(cell.x)}${cell.y + 1}`, cell]));
    expect(written.size).toBe(6);
    expect(written.get("F3")?.value).toBe("=A3*$B$1");
    expect(written.get("F2")?.value).toBe("=A2*$B$1");
    expect(written.get("G4")?.value).toBe("=B4*$B$1");
  });

  it("should write text as typed in every cell", () => {
    const { grid, edits } = fakeGrid({ anchor: { row: 0, column: 0 }, end: { row: 1, column: 0 } });
    fillSelection(grid, "first\nsecond");
    expect(edits[0].map((cell) => cell.value)).toEqual(["first\nsecond", "first\nsecond"]);
  });

  it("should leave one cell, or more than two whole columns, to the active cell's own entry", () => {
    const one = { row: 4, column: 4 };
    expect(fillsSelection(fakeGrid({ anchor: one, end: one }).grid)).toBe(false);
    const sheet = { anchor: { row: 0, column: 0 }, end: { row: 1_048_575, column: 2 } };
    expect(fillsSelection(fakeGrid(sheet).grid)).toBe(false);
  });

  it("should write each selected cell once, the entry moved back from it reading as typed (generated selections)", () => {
    const corner = fc.record({
      row: fc.integer({ min: 0, max: 40 }),
      column: fc.integer({ min: 0, max: 20 }),
    });
    fc.assert(
      fc.property(corner, corner, fc.nat(), (anchor, end, pick) => {
        const top = Math.min(anchor.row, end.row);
        const left = Math.min(anchor.column, end.column);
        const rows = Math.abs(anchor.row - end.row) + 1;
        const columns = Math.abs(anchor.column - end.column) + 1;
        const active = { row: top + (pick % rows), column: left + (pick % columns) };
        const { grid, edits } = fakeGrid({ anchor, end, active });
        // References far from the sheet's edges: no cell moves one off the sheet.
        const entry = "=SUM(AA100:AB101)+AC$102";
        fillSelection(grid, entry);
        const cells = edits[0];
        expect(cells.length).toBe(rows * columns);
        expect(new Set(cells.map((cell) => `${cell.x},${cell.y}`)).size).toBe(rows * columns);
        for (const cell of cells) {
          const rowsMoved = cell.y - active.row;
          const aa = 26 + cell.x - active.column; // column AA, moved
          const range = `${columnName(aa)}${100 + rowsMoved}:${columnName(aa + 1)}${101 + rowsMoved}`;
          expect(cell.value).toBe(`=SUM(${range})+${columnName(aa + 2)}$102`);
        }
      }),
      { numRuns: 200 }
    );
  });
});
