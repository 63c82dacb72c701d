import { decodeIndexBitmap, encodeIndexBitmap } from "../../taskpane/bulk/indexRanges.js";
import {
  ROW_RECORD_SHEET,
  deleteRowRecord,
  openRowRecords,
  rowRecord,
  saveRowRecord,
} from "../../taskpane/sheet/rowRecordStore.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";

describe("rowRecordStore (the per-row record in a very hidden sheet)", () => {
  let workbook: MockWorkbook;
  let uninstall: () => void = () => undefined;
  beforeEach(() => {
    workbook = new MockWorkbook();
    uninstall = workbook.install();
  });
  afterEach(() => uninstall());

  it("should keep a record in a very hidden sheet and read it back after a reopen, text as text", async () => {
    await openRowRecords();
    const long = "abcdefghij".repeat(10_000); // 100,000 characters: four cells
    await saveRowRecord("job1", { rows: "1-3,7", lost: "-1", long, empty: "" });
    expect(workbook.sheetVisibility(ROW_RECORD_SHEET)).toBe("VeryHidden");
    expect(workbook.sheetNames()).toEqual(["Sheet1", ROW_RECORD_SHEET]);
    const cells = workbook.allCells().filter(({ sheet }) => sheet === ROW_RECORD_SHEET);
    expect(Math.max(...cells.map(({ cell }) => String(cell.value).length))).toBeLessThanOrEqual(
      32_767
    );
    expect(cells.every(({ cell }) => cell.formula === undefined)).toBeTrue();

    workbook.reload();
    await openRowRecords(); // forgets memory, reads the sheet
    expect(rowRecord("job1")).toEqual({ rows: "1-3,7", lost: "-1", long, empty: "" });
    expect(rowRecord("job2")).toBeUndefined();
  });

  it("should rewrite only the fields given, empty cells a field no longer needs, and reuse a deleted job's columns", async () => {
    await openRowRecords();
    await saveRowRecord("job1", { fingerprints: "x".repeat(70_000), handled: "A" });
    await saveRowRecord("job1", { fingerprints: "y" });
    await openRowRecords();
    expect(rowRecord("job1")).toEqual({ fingerprints: "y", handled: "A" });
    expect(workbook.values(ROW_RECORD_SHEET, "A2:A4")).toEqual([["y"], [""], [""]]);

    await deleteRowRecord("job1");
    await saveRowRecord("job2", { rows: "1-5" });
    await openRowRecords();
    expect(rowRecord("job1")).toBeUndefined();
    expect(rowRecord("job2")).toEqual({ rows: "1-5" });
    expect(workbook.usedBlock(ROW_RECORD_SHEET)?.columnCount).toBe(1); // column A reused
  });

  it("should write a million-row field in syncs under Office's payload limit", async () => {
    await openRowRecords();
    await saveRowRecord("big", { fingerprints: "f".repeat(9 * 1_048_575) });
    await openRowRecords();
    expect(rowRecord("big")?.fingerprints.length).toBe(9 * 1_048_575);
    expect(workbook.stats.maxRequestBytes).toBeLessThanOrEqual(5 * 1024 * 1024);
    expect(workbook.stats.maxResponseBytes).toBeLessThanOrEqual(5 * 1024 * 1024);
  });
});

describe("encodeIndexBitmap", () => {
  it("should write 6 indexes a character and read them back in order", () => {
    expect(encodeIndexBitmap([0, 2, 7], 8)).toBe("FC");
    expect(decodeIndexBitmap("FC")).toEqual([0, 2, 7]);
    const scattered = Array.from({ length: 50_000 }, (_, i) => i * 3 + (i % 2));
    expect(decodeIndexBitmap(encodeIndexBitmap(scattered, 150_001))).toEqual(scattered);
    expect(encodeIndexBitmap(scattered, 150_001).length).toBe(25_001);
  });
});
