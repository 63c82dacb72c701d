import { OutputLayout } from "../../taskpane/sheet/outputLayout.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { rowFingerprint } from "../../taskpane/sheet/rowFingerprint.js";
import { writeOutputs } from "../../taskpane/sheet/writeOutputs.js";
import type { RowWrite } from "../../taskpane/sheet/RowWrite.js";
import type { WriteTarget } from "../../taskpane/sheet/WriteTarget.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";

const LIMIT = 5 * 1024 * 1024;

/** A sheet with a "text" header over `count` rows ("row 0", ...), and a write target beside it. */
function textSheet(count: number): {
  rows: string[][];
  workbook: MockWorkbook;
  target: WriteTarget;
} {
  const rows = [["text"], ...Array.from({ length: count }, (_, i) => [`row ${i}`])];
  const workbook = new MockWorkbook({
    sheets: { Sheet1: rows },
    selection: `Sheet1!A1:A${count + 1}`,
  });
  const layout = new OutputLayout(1);
  return {
    rows,
    workbook,
    target: { sheet: "Sheet1", headerRow: 0, inputColumns: [0], layout, headersWritten: 0 },
  };
}

describe("Excel batches of the task pane (mock workbook)", () => {
  let uninstall: () => void = () => undefined;
  afterEach(() => uninstall());

  it("should fail a read without load or sync, as Office does", async () => {
    const workbook = new MockWorkbook({ sheets: { Sheet1: [["a"]] }, selection: "Sheet1!A1" });
    uninstall = workbook.install();
    await expectAsync(
      Excel.run(async (context) => {
        const range = context.workbook.getSelectedRange();
        range.load("values");
        // eslint-disable-next-line office-addins/call-sync-after-load, office-addins/call-sync-before-read -- the mistake under test
        return range.values; // no sync
      })
    ).toBeRejectedWithError(/context.sync\(\) was not called/);
    await expectAsync(
      Excel.run(async (context) => {
        const range = context.workbook.getSelectedRange();
        await context.sync();
        // eslint-disable-next-line office-addins/load-object-before-read -- the mistake under test
        return range.values; // no load
      })
    ).toBeRejectedWithError(/not loaded/);
  });

  it("should read a selection larger than Office's payload limit in chunks under it", async () => {
    const big = "x".repeat(2_000);
    const rows = [["text", "n"], ...Array.from({ length: 4_000 }, (_, i) => [`${big}${i}`, i])]; // ~8 MB
    const workbook = new MockWorkbook({ sheets: { Sheet1: rows }, selection: "Sheet1!A1:B4001" });
    uninstall = workbook.install();

    const selection = await readSelection();

    expect(selection.rows.length).toBe(4_000);
    expect(selection.rows[3_999]).toEqual([`${big}3999`, 3_999]);
    expect(workbook.stats.readSyncs).toBeGreaterThan(3);
    expect(workbook.stats.maxResponseBytes).toBeLessThan(LIMIT);
  });

  it("should split a write batch that would exceed the payload limit", async () => {
    const { rows, workbook, target } = textSheet(3_000);
    uninstall = workbook.install();
    const results: RowWrite[] = rows.slice(1).map(([text], i) => ({
      run: i,
      row: i + 1,
      fingerprint: rowFingerprint([text]),
      status: "success",
      outputs: { long: "y".repeat(3_000), n: i },
    }));

    const report = await writeOutputs(target, results);

    expect(report.written.length).toBe(3_000);
    expect(report.writeSyncs).toBeGreaterThan(1);
    expect(workbook.stats.maxRequestBytes).toBeLessThan(LIMIT);
    expect(workbook.values("Sheet1", "B3001:D3001")).toEqual([
      ["success", "y".repeat(3_000), 2_999],
    ]);
  });

  it("should write one batch of scattered rows with one read sync and one write sync", async () => {
    const { workbook, target } = textSheet(100);
    uninstall = workbook.install();
    const picked = [3, 4, 50, 97];
    const report = await writeOutputs(
      target,
      picked.map((i) => ({
        run: i,
        row: i + 1,
        fingerprint: rowFingerprint([`row ${i}`]),
        status: "success",
        outputs: { echo: `row ${i}` },
      }))
    );
    expect(report).toEqual({ written: picked, stale: [], lost: [], readSyncs: 1, writeSyncs: 1 });
    expect(workbook.stats.syncs).toBe(2);
    expect(workbook.values("Sheet1", "C5:C7")).toEqual([["row 3"], ["row 4"], [""]]);
    expect(workbook.values("Sheet1", "C99")).toEqual([["row 97"]]);
  });
});
