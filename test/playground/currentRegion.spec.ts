import fc from "fast-check";
import { currentRegion } from "../../playground/excel/currentRegion.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";

/**
 * Excel's current region (what Ctrl+A selects first): "a range bounded by any combination of
 * blank rows and blank columns" around the active cell.
 */
describe("currentRegion", () => {
  const sheetOf = (rows: MockCellValue[][]) =>
    new MockWorkbook({ sheets: { Sheet1: rows }, selection: "Sheet1!A1" });

  it("should be the data bounded by blank rows and columns, corners' neighbours joined", () => {
    // B2:C3 filled, D4 touching C3 by its corner, H1 apart.
    const workbook = sheetOf([
      ["", "", "", "", "", "", "", "far"],
      ["", "a", "b"],
      ["", "c", "d"],
      ["", "", "", "e"],
    ]);
    expect(currentRegion(workbook, "Sheet1", { row: 1, column: 1 })).toEqual({
      top: 1,
      left: 1,
      rowCount: 3,
      columnCount: 3,
    });
    // An empty cell beside the data belongs to it; one far from any data has no region.
    expect(currentRegion(workbook, "Sheet1", { row: 4, column: 4 })).toEqual({
      top: 1,
      left: 1,
      rowCount: 4,
      columnCount: 4,
    });
    expect(currentRegion(workbook, "Sheet1", { row: 9, column: 9 })).toBeUndefined();
  });

  it("should hold the cell and be bounded by blank rows and columns (generated sheets)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), {
          minLength: 6,
          maxLength: 6,
        }),
        fc.nat(5),
        fc.nat(5),
        (cells, row, column) => {
          const workbook = sheetOf(cells.map((line) => line.map((on) => (on ? "x" : ""))));
          const region = currentRegion(workbook, "Sheet1", { row, column });
          const filled = (r: number, c: number) => cells[r]?.[c] === true;
          if (!region) {
            for (let r = row - 1; r <= row + 1; r++)
              for (let c = column - 1; c <= column + 1; c++) expect(filled(r, c)).toBeFalse();
            return;
          }
          const bottom = region.top + region.rowCount - 1;
          const right = region.left + region.columnCount - 1;
          expect(row >= region.top && row <= bottom && column >= region.left && column <= right)
            .withContext("holds the cell")
            .toBeTrue();
          // The ring just outside the region is blank.
          for (let c = region.left - 1; c <= right + 1; c++) {
            expect(filled(region.top - 1, c) || filled(bottom + 1, c)).toBeFalse();
          }
          for (let r = region.top - 1; r <= bottom + 1; r++) {
            expect(filled(r, region.left - 1) || filled(r, right + 1)).toBeFalse();
          }
        }
      )
    );
  });
});
