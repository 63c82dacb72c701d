/**
 * The task pane over a whole sheet, with the mock's Office limits on (5 MB per request and
 * response, 1 MB per settings save): a whole-column selection of 1,048,575 rows, a 300,000-row
 * job end to end, the user's edit between the check and the write, a block selected without its
 * header row.
 */
import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import type { BulkSource } from "../../taskpane/bulk/bulkRunController.js";
import { STATUS_HEADER } from "../../taskpane/sheet/outputLayout.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import { loadBulkJob, saveBulkJob } from "../../taskpane/storedJob/jobStore.js";
import type { BulkJob } from "../../taskpane/storedJob/BulkJob.js";
import { STALE_STATUS } from "../../taskpane/sheet/statusText.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { ROW_RECORD_SHEET, openRowRecords } from "../../taskpane/storedJob/rowRecordStore.js";
import { mountBulkView } from "../../taskpane/ui/bulkView.js";
import { registerFluent } from "../../taskpane/ui/registerFluent.js";
import { scatteredBulkSource } from "../helpers/scatteredBulkSource.js";
import { waitFor, bulkViewDeps } from "./taskpaneTestKit.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";

const LIMIT = 5 * 1024 * 1024;
const SETTINGS_LIMIT = 1024 * 1024;

/**
 * A bulk source that finishes the runs in scattered order over `polls` polls (seeded), each
 * run's output naming its input (`echo`), as the service's bulks do.
 */
function scatteredSource(polls: number): BulkSource & { bulks: number } {
  return scatteredBulkSource({
    polls,
    intervalMs: 10,
    seed: 7,
    outputsOf: (inputs) => ({ echo: `out ${String(inputs.text)}` }),
  });
}

/** A "text" header over `count` rows "r1", "r2", ... in column A. */
function textColumn(count: number): MockCellValue[][] {
  const rows: MockCellValue[][] = [["text"]];
  for (let i = 1; i <= count; i++) rows.push([`r${i}`]);
  return rows;
}

/** Every document setting as saved, in UTF-8 bytes. */
function savedSettingsBytes(workbook: MockWorkbook): number {
  return new TextEncoder().encode(JSON.stringify(workbook.savedSettings)).length;
}

describe("Task pane over a whole sheet, within Office's limits", () => {
  let uninstall: () => void = () => undefined;
  afterEach(() => uninstall());

  it("should plan a whole-column selection of 1,048,575 rows in chunks under 5 MB, and store its job in a few KB of settings", async () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: textColumn(1_048_575) },
      selection: "Sheet1!A:A",
    });
    uninstall = workbook.install();

    const selection = await readSelection();
    expect(selection.cutFrom).toBe("A:A");
    expect(selection.block).toEqual({ top: 0, left: 0, rowCount: 1_048_576, columnCount: 1 });
    expect(selection.rows.length).toBe(1_048_575);
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: true,
    });
    expect(plan.problems).toEqual([]);
    expect(plan.rows.length).toBe(1_048_575);
    expect(plan.rows[1_048_574].inputs).toEqual({ text: "r1048575" });
    expect(workbook.stats.maxResponseBytes).toBeLessThanOrEqual(LIMIT);
    expect(workbook.stats.maxRequestBytes).toBeLessThanOrEqual(LIMIT);

    // The job of the whole column: its per-row record goes to the very hidden sheet.
    const job: BulkJob = {
      version: 1,
      id: "SpellRun_whole",
      spellId: "echo",
      sheet: "Sheet1",
      sheetId: selection.sheetId,
      headerRow: 0,
      rows: plan.rows.map((row) => 1 + row.offset),
      inputColumns: [0],
      inputNames: ["text"],
      fingerprints: plan.rows.map((row) => row.fingerprint),
      statusColumn: 1,
      outputNames: [],
      handled: [],
      startedAt: 1,
    };
    await saveBulkJob(job);
    expect(workbook.stats.failedSettingsSaves).toBe(0);
    expect(savedSettingsBytes(workbook)).toBeLessThan(4 * 1024);
    expect(workbook.sheetVisibility(ROW_RECORD_SHEET)).toBe("VeryHidden");
    expect(workbook.stats.maxRequestBytes).toBeLessThanOrEqual(LIMIT);

    // Reopened (here or on another computer): the record travels with the workbook.
    workbook.reload();
    await openRowRecords();
    const reopened = loadBulkJob();
    expect(reopened?.rows.length).toBe(1_048_575);
    expect(reopened?.fingerprints).toEqual(job.fingerprints);
    expect(reopened?.rows[1_048_574]).toBe(1_048_575);
    expect(workbook.stats.maxResponseBytes).toBeLessThanOrEqual(LIMIT);
  }, 300_000);

  it("should run a 300,000-row job end to end, every output in its own row, no settings save over 1 MB", async () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: textColumn(300_000) },
      selection: "Sheet1!A1:A300001",
    });
    uninstall = workbook.install();
    let largestSettings = 0;
    workbook.afterSync = () => {
      largestSettings = Math.max(largestSettings, savedSettingsBytes(workbook));
    };

    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: true,
    });
    const controller = new BulkRunController(scatteredSource(6));
    const progress = await controller.start(selection, plan, "echo");

    expect(progress.phase).toBe("done");
    expect(progress.counts.success).toBe(300_000);
    expect(workbook.values("Sheet1", "B1:C1")).toEqual([[STATUS_HEADER, "echo"]]);
    const written = workbook.values("Sheet1", "B2:C300001");
    const misplaced = written.findIndex(
      ([status, echo], i) => status !== "success" || echo !== `out r${i + 1}`
    );
    expect(misplaced)
      .withContext(`first misplaced row ${misplaced + 2}`)
      .toBe(-1);
    expect(workbook.stats.failedSettingsSaves).toBe(0);
    expect(workbook.stats.largestSettingsBytes).toBeLessThan(SETTINGS_LIMIT);
    expect(largestSettings).toBeLessThan(SETTINGS_LIMIT);
    expect(workbook.stats.maxRequestBytes).toBeLessThanOrEqual(LIMIT);
    expect(workbook.stats.maxResponseBytes).toBeLessThanOrEqual(LIMIT);
  }, 300_000);

  it("should put back a write that lands beside another record (an edit between the check and the write) and mark that row stale", async () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: [["text"], ["a"], ["b"], ["c"]] },
      selection: "Sheet1!A1:A4",
    });
    uninstall = workbook.install();
    let edited = false;
    // The user types over A3 after the pane's last read, just before its write of the results.
    workbook.beforeSync = ({ writes }) => {
      if (!edited && writes.some((address) => address.startsWith("Sheet1!B2:C"))) {
        edited = true;
        workbook.setValues("Sheet1", "A3", [["typed by the user"]]);
      }
    };

    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: true,
    });
    const progress = await new BulkRunController(scatteredSource(1)).start(selection, plan, "echo");

    expect(edited).toBe(true);
    expect(progress.stale).toBe(1);
    expect(workbook.values("Sheet1", "A2:C4")).toEqual([
      ["a", "success", "out a"],
      ["typed by the user", STALE_STATUS, ""],
      ["c", "success", "out c"],
    ]);
  });

  it("should put each result in its own row when the user sorts between the check and the write", async () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: [["text"], ["a"], ["b"], ["c"], ["d"]] },
      selection: "Sheet1!A1:A5",
    });
    uninstall = workbook.install();
    let sorted = false;
    workbook.beforeSync = ({ writes }) => {
      if (!sorted && writes.some((address) => address.startsWith("Sheet1!B2:C"))) {
        sorted = true;
        workbook.sortRows("Sheet1", 1, 4, (cells) => -String(cells[0]).charCodeAt(0));
      }
    };

    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: true,
    });
    const progress = await new BulkRunController(scatteredSource(1)).start(selection, plan, "echo");

    expect(sorted).toBe(true);
    expect(progress.stale).toBe(0);
    expect(workbook.values("Sheet1", "A2:C5")).toEqual([
      ["d", "success", "out d"],
      ["c", "success", "out c"],
      ["b", "success", "out b"],
      ["a", "success", "out a"],
    ]);
  });

  it("should refuse a block selected without its header row until the row above is included, then run every record and write no header into one", async () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: [["text"], ["alpha"], ["beta"], ["gamma"]] },
      selection: "Sheet1!A2:A4", // the names are in row 1, just above
    });
    uninstall = workbook.install();
    registerFluent();
    const root = document.createElement("div");
    document.body.append(root);
    const source = scatteredSource(1);
    const controller = new BulkRunController(source);
    try {
      await mountBulkView(root, bulkViewDeps(controller));
      const byId = (id: string) => root.querySelector(`#${id}`) as HTMLElement;
      (byId("spell-id") as HTMLElement & { value: string }).value = "echo";
      byId("use-selection").click();
      await waitFor(() => !byId("header-above").hidden, 5_000, "the header prompt");
      expect(byId("header-above-text").textContent).toContain(
        "Row 1 just above the selection looks like the input names (text)"
      );
      expect(byId("plan-summary").textContent).toContain("Until then nothing runs");
      expect(byId("run").hasAttribute("disabled")).toBeTrue();

      byId("include-row-above").click();
      await waitFor(() => byId("header-above").hidden, 5_000, "the block with its header row");
      expect(byId("selection-summary").textContent).toContain("Sheet1!A1:A4");
      expect(byId("plan-summary").textContent).toContain("3 runs at most will start");
      byId("run").click();
      await waitFor(() => controller.progress.phase === "done", 10_000, "the bulk");
      expect(workbook.values("Sheet1", "A1:C4")).toEqual([
        ["text", STATUS_HEADER, "echo"],
        ["alpha", "success", "out alpha"],
        ["beta", "success", "out beta"],
        ["gamma", "success", "out gamma"],
      ]);
    } finally {
      root.remove();
    }
  });

  it("should leave the plan as it is when the row above does not look like names", async () => {
    const workbook = new MockWorkbook({
      sheets: {
        Sheet1: [
          ["Q3 reviews", ""],
          ["text", "n"],
          ["alpha", 1],
          ["beta", 2],
        ],
      },
      selection: "Sheet1!A2:B4",
    });
    uninstall = workbook.install();
    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: true,
    });
    expect(plan.headerAbove).toBeUndefined();
    expect(plan.problems).toEqual([]);
  });
});
