import fc from "fast-check";
import { LAST_COLUMN, LAST_ROW } from "../../playground/excel/a1.js";
import {
  ctrlArrowTarget,
  dataRegionEdge,
  lastUsedCell,
} from "../../playground/excel/dataRegionEdge.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";

/**
 * Excel's Ctrl+arrow rule on the model's data: from a filled cell whose neighbour is filled, to
 * the run's last filled cell; otherwise to the next filled cell; with none, to the sheet's edge.
 */
describe("dataRegionEdge", () => {
  it("should go to the run's last filled cell from a filled cell whose neighbour is filled", () => {
    expect(dataRegionEdge(new Set([1, 2, 3, 7]), 1, 1, LAST_ROW)).toBe(3);
    expect(dataRegionEdge(new Set([1, 2, 3, 7]), 3, -1, LAST_ROW)).toBe(1);
  });

  it("should go to the next filled cell, else the sheet's edge", () => {
    expect(dataRegionEdge(new Set([1, 2, 3, 7]), 3, 1, LAST_ROW)).toBe(7);
    expect(dataRegionEdge(new Set([1, 2, 3, 7]), 7, 1, LAST_ROW)).toBe(LAST_ROW);
    expect(dataRegionEdge(new Set([1, 2, 3, 7]), 0, 1, LAST_ROW)).toBe(1);
    expect(dataRegionEdge(new Set([1, 2, 3, 7]), 1, -1, LAST_ROW)).toBe(0);
    expect(dataRegionEdge(new Set(), 5, 1, LAST_COLUMN)).toBe(LAST_COLUMN);
    expect(dataRegionEdge(new Set([4]), LAST_ROW, 1, LAST_ROW)).toBe(LAST_ROW);
  });

  it("should stop on a filled cell or the edge, past only empty cells or one run (generated lines)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 40 }),
        fc.integer({ min: 0, max: 60 }),
        fc.constantFrom(1 as const, -1 as const),
        (indexes, from, step) => {
          const filled = new Set(indexes);
          const to = dataRegionEdge(filled, from, step, 60);
          const edge = step > 0 ? 60 : 0;
          if (from === edge) return to === from;
          expect(to === edge || filled.has(to)).toBeTrue();
          const passed = Array.from(
            { length: Math.abs(to - from) - 1 },
            (_, i) => from + step * (i + 1)
          );
          const run = filled.has(from) && filled.has(from + step);
          // Inside a run every cell passed is filled and the next is not; else all are empty.
          expect(passed.every((index) => filled.has(index) === run)).toBeTrue();
          if (run && to !== edge) expect(filled.has(to + step)).toBeFalse();
        }
      )
    );
  });
});

describe("ctrlArrowTarget and lastUsedCell", () => {
  it("should follow the model's data of one sheet, and Ctrl+End the last used row and column", () => {
    const workbook = new MockWorkbook({
      sheets: { Data: [["a", "b"], ["c"], [], ["d"]], Other: [[], [], [], [], [], [], ["x"]] },
    });
    expect(ctrlArrowTarget(workbook, "Data", { row: 0, column: 0 }, "down")).toEqual({
      row: 1,
      column: 0,
    });
    expect(ctrlArrowTarget(workbook, "Data", { row: 1, column: 0 }, "down")).toEqual({
      row: 3,
      column: 0,
    });
    expect(ctrlArrowTarget(workbook, "Data", { row: 3, column: 0 }, "down")).toEqual({
      row: LAST_ROW,
      column: 0,
    });
    expect(ctrlArrowTarget(workbook, "Data", { row: 0, column: 0 }, "right")).toEqual({
      row: 0,
      column: 1,
    });
    expect(ctrlArrowTarget(workbook, "Data", { row: 0, column: 1 }, "right")).toEqual({
      row: 0,
      column: LAST_COLUMN,
    });
    expect(lastUsedCell(workbook, "Data")).toEqual({ row: 3, column: 1 });
    expect(lastUsedCell(workbook, "Other")).toEqual({ row: 6, column: 0 });
  });
});
