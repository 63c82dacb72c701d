import { decodeIndexBitmap, encodeIndexBitmap } from "../../taskpane/storedJob/indexRanges.js";
import {
  ROW_RECORD_SHEET,
  deleteRowRecord,
  openRowRecords,
  rowRecord,
  saveRowRecord,
} from "../../taskpane/storedJob/rowRecordStore.js";
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

  it("should rewrite a field from its first changed cell on: one more kept line rewrites the last cell", async () => {
    await openRowRecords();
    const long = "k".repeat(100_000); // cells A2:A5 (32,000 characters each, 4,000 in A5)
    await saveRowRecord("job1", { kept: long, rows: "1-3" });
    const written: string[] = [];
    // Each range is written twice in its sync (Text format, then values).
    workbook.beforeSync = ({ writes }) => written.push(...new Set(writes));

    await saveRowRecord("job1", { kept: `${long}\nmore` });
    expect(written).toEqual([`${ROW_RECORD_SHEET}!A5`]);

    // Past a cell's end: the new cell and the header's cell count, nothing before.
    written.length = 0;
    await saveRowRecord("job1", { kept: `${long}${"m".repeat(30_000)}` });
    expect(written).toEqual([`${ROW_RECORD_SHEET}!A1`, `${ROW_RECORD_SHEET}!A5:A6`]);

    // Shorter: the cells it no longer needs are emptied.
    written.length = 0;
    await saveRowRecord("job1", { kept: "k".repeat(40_000) });
    expect(written).toEqual([`${ROW_RECORD_SHEET}!A1`, `${ROW_RECORD_SHEET}!A3:A6`]);

    await openRowRecords();
    expect(rowRecord("job1")).toEqual({ kept: "k".repeat(40_000), rows: "1-3" });
    expect(workbook.values(ROW_RECORD_SHEET, "A4:A6")).toEqual([[""], [""], [""]]);
  });

  it("should read no more cells than the sheet uses when a crafted header claims 10^9, and rewrite a field not in whole cells whole", async () => {
    uninstall();
    workbook = new MockWorkbook({
      sheets: {
        Sheet1: [["text"]],
        [ROW_RECORD_SHEET]: [
          ["job1|kept|1000000000"],
          ["ab"], // not a full cell: written by something else than the pane
          ["cd"],
        ],
      },
    });
    uninstall = workbook.install();
    const started = performance.now();
    await openRowRecords();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(rowRecord("job1")).toEqual({ kept: "abcd" });

    const written: string[] = [];
    workbook.beforeSync = ({ writes }) => written.push(...new Set(writes));
    await saveRowRecord("job1", { kept: "abcde" });
    expect(written).toEqual([`${ROW_RECORD_SHEET}!A1:A3`]);
    await openRowRecords();
    expect(rowRecord("job1")).toEqual({ kept: "abcde" });
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
