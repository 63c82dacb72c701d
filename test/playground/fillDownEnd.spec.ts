import { fillDownEnd } from "../../playground/excel/fillDownEnd.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";

const column = (values: MockCellValue[]) => values.map((value) => [value]);
const at = (top: number, left: number, rowCount = 1, columnCount = 1) => ({
  top,
  left,
  rowCount,
  columnCount,
});

/** Excel: a double-click on the fill handle fills down as far as the adjacent column's data goes. */
describe("fillDownEnd (a double-click on the fill handle)", () => {
  it("should fill down as far as the column to the left has data, and no further", () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: column(Array.from({ length: 37 }, (_, i) => `row ${i + 1}`)) },
    });
    workbook.setValues("Sheet1", "B2", [["=A2"]]);
    expect(fillDownEnd(workbook, "Sheet1", at(1, 1))).toBe(36); // B37
  });

  it("should stop at the first gap of the adjacent column, and use the right column when the left has none", () => {
    const workbook = new MockWorkbook({ sheets: { Sheet1: [] } });
    workbook.setValues("Sheet1", "A1", column([1, 2, 3, "", 5]));
    workbook.setValues("Sheet1", "B1", [["x"]]);
    expect(fillDownEnd(workbook, "Sheet1", at(0, 1))).toBe(2); // B3: A4 is a gap
    workbook.setValues("Sheet1", "D1", column([1, 2, 3, 4, 5, 6]));
    workbook.setValues("Sheet1", "C1", [["y"]]);
    // C's left column B has nothing below C1: the right column D goes to row 6.
    expect(fillDownEnd(workbook, "Sheet1", at(0, 2))).toBe(5);
  });

  it("should fill nothing without adjacent data, and stop before a filled cell of its own column", () => {
    const workbook = new MockWorkbook({ sheets: { Sheet1: [] } });
    workbook.setValues("Sheet1", "E1", [["lonely"]]);
    expect(fillDownEnd(workbook, "Sheet1", at(0, 4))).toBeUndefined();
    workbook.setValues("Sheet1", "A1", column([1, 2, 3, 4, 5, 6, 7, 8]));
    workbook.setValues("Sheet1", "B1", [["x"]]);
    workbook.setValues("Sheet1", "B5", [["kept"]]);
    expect(fillDownEnd(workbook, "Sheet1", at(0, 1))).toBe(3); // B4, before B5
    workbook.setValues("Sheet1", "B2", [["kept too"]]);
    expect(fillDownEnd(workbook, "Sheet1", at(0, 1))).toBeUndefined();
  });

  it("should take the selection's last row and all its columns", () => {
    const workbook = new MockWorkbook({ sheets: { Sheet1: [] } });
    workbook.setValues("Sheet1", "A1", column([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    workbook.setValues("Sheet1", "B1", [
      [1, 2],
      [2, 4],
    ]);
    expect(fillDownEnd(workbook, "Sheet1", at(0, 1, 2, 2))).toBe(9);
    workbook.setValues("Sheet1", "C7", [["in the way"]]);
    expect(fillDownEnd(workbook, "Sheet1", at(0, 1, 2, 2))).toBe(5);
  });
});
