import { LAST_COLUMN, LAST_ROW, parseAddress } from "../../playground/excel/a1.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";

/**
 * The workbook model covers a whole Excel sheet (1,048,576 rows × 16,384 columns, XFD1048576
 * the last cell) with sparse storage, and refuses what Office.js refuses: `getRange("XFE1")` or
 * a `getCell` past the edge fail the next sync with `InvalidArgument`, "The argument is invalid
 * or missing or has an incorrect format." (Office.js, errorLocation `Worksheet.getRange`).
 */
describe("The workbook model's sheet bounds", () => {
  let uninstall: () => void = () => undefined;
  afterEach(() => uninstall());

  it("should parse A1 addresses up to XFD1048576 and refuse one past it", () => {
    expect(parseAddress("XFD1048576").block).toEqual({
      top: LAST_ROW,
      left: LAST_COLUMN,
      rowCount: 1,
      columnCount: 1,
    });
    expect(parseAddress("A1:XFD1048576").block).toEqual({
      top: 0,
      left: 0,
      rowCount: 1_048_576,
      columnCount: 16_384,
    });
    expect(() => parseAddress("XFE1")).toThrowError(/past XFD1048576/);
    expect(() => parseAddress("A1048577")).toThrowError(/past XFD1048576/);
    expect(() => parseAddress("A0")).toThrowError(/Not an A1 address/);
  });

  it("should keep cells at the sheet's far corners without storing the cells between", async () => {
    const workbook = new MockWorkbook({ sheets: { Sheet1: [[], ["", "first"]] } });
    uninstall = workbook.install();
    workbook.setValues("Sheet1", "XFD1048576", [["last"]]);
    workbook.setValues("Sheet1", "XFD1", [["right"]]);
    const [corner, used, whole] = await Excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      const far = sheet.getRange("XFC1048575:XFD1048576").load("values");
      const usedRange = sheet.getUsedRange(true).load("address");
      const last = sheet.getRange("1048576:1048576").load("address");
      await context.sync();
      return [far.values, usedRange.address, last.address];
    });
    expect(corner).toEqual([
      ["", ""],
      ["", "last"],
    ]);
    // Rows 1 to 1,048,576: Excel names whole columns.
    expect(used).toBe("Sheet1!B:XFD");
    expect(whole).toBe("Sheet1!1048576:1048576");
    expect(workbook.allCells().map(({ address }) => address)).toEqual(
      jasmine.arrayWithExactContents(["B2", "XFD1", "XFD1048576"])
    );
    expect(workbook.lastRow("Sheet1")).toBe(LAST_ROW);
  });

  it("should fail the sync of a range past XFD1048576 as Office.js does", async () => {
    const workbook = new MockWorkbook();
    uninstall = workbook.install();
    const loadOf = (address: string) =>
      Excel.run(async (context) => {
        context.workbook.worksheets.getItem("Sheet1").getRange(address).load("values");
        await context.sync();
      });
    for (const address of ["XFE1", "A1048577", "A1:XFE2"]) {
      await expectAsync(loadOf(address)).toBeRejectedWith(
        jasmine.objectContaining({
          code: "InvalidArgument",
          message: "The argument is invalid or missing or has an incorrect format.",
        })
      );
    }
    await expectAsync(
      Excel.run(async (context) => {
        const corner = context.workbook.worksheets.getItem("Sheet1").getRange("XFD1048576");
        corner.getCell(1, 0).load("values");
        await context.sync();
      })
    ).toBeRejectedWith(jasmine.objectContaining({ code: "InvalidArgument" }));
    // The last cell itself is a cell like any other.
    const value = await Excel.run(async (context) => {
      const corner = context.workbook.worksheets.getItem("Sheet1").getRange("XFD1048576");
      corner.values = [["here"]];
      const read = corner.getCell(0, 0).load("values");
      await context.sync();
      return read.values;
    });
    expect(value).toEqual([["here"]]);
  });

  it("should refuse values typed past the sheet's edge", () => {
    const workbook = new MockWorkbook();
    expect(() => workbook.setValues("Sheet1", "XFD1", [["a", "b"]])).toThrowError(
      /past XFD1048576/
    );
    expect(() => workbook.setValues("Sheet1", "A1048576", [["a"], ["b"]])).toThrowError(
      /past XFD1048576/
    );
    expect(workbook.allCells()).toEqual([]);
  });

  it("should refuse an insert that would push a cell off the sheet, moving nothing", () => {
    const workbook = new MockWorkbook({ sheets: { Sheet1: [["a"]] } });
    workbook.setValues("Sheet1", "A1048576", [["last row"]]);
    workbook.setValues("Sheet1", "XFD2", [["last column"]]);
    expect(() => workbook.insertRows("Sheet1", 0)).toThrow(
      jasmine.objectContaining({ code: "InsertDeleteConflict" })
    );
    expect(() => workbook.insertColumns("Sheet1", 5, 2)).toThrow(
      jasmine.objectContaining({ code: "InsertDeleteConflict" })
    );
    expect(workbook.values("Sheet1", "A1")).toEqual([["a"]]);
    // Up to the edge, an insert is fine.
    const roomy = new MockWorkbook({ sheets: { Sheet1: [["a"]] } });
    roomy.setValues("Sheet1", "XFC1", [["next to last"]]);
    roomy.insertColumns("Sheet1", 0);
    expect(roomy.values("Sheet1", "B1")).toEqual([["a"]]);
    expect(roomy.values("Sheet1", "XFD1")).toEqual([["next to last"]]);
  });
});
