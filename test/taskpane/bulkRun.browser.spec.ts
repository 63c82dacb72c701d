import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import type { BulkProgress } from "../../taskpane/bulk/bulkRunController.js";
import { STATUS_HEADER } from "../../taskpane/sheet/outputLayout.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { BULK_JOB_SETTING } from "../../taskpane/storedJob/jobSettings.js";
import { loadBulkJob } from "../../taskpane/storedJob/jobStore.js";
import { CANCELLED_STATUS, STALE_STATUS } from "../../taskpane/sheet/statusText.js";
import { emulatorForBrowser, emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import type { MockCellValue, MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { emulatorClient, waitFor, workbookWith } from "./taskpaneTestKit.js";

/** The saved document settings that hold jobs (none once every bulk finished). */
function storedJobKeys(workbook: MockWorkbook): string[] {
  return Object.keys(workbook.savedSettings).filter((key) => key.startsWith(BULK_JOB_SETTING));
}

/** Reads the selection, plans every row and starts the bulk; resolves when it ends. */
async function runSelection(controller: BulkRunController, spellId: string): Promise<BulkProgress> {
  const selection = await readSelection();
  const plan = planBulk(selection, defaultMapping(selection.headers), {
    onlyRowsWithoutOutputs: false,
  });
  expect(plan.problems).toEqual([]);
  return controller.start(selection, plan, spellId);
}

/**
 * Runs the selection's `sleep` bulk in a page whose network dies once `quickRows` rows are in the
 * sheet (like a closed tab: no cancelBulk ever reaches the service); resolves when it failed.
 */
async function runUntilPageDies(quickRows: number): Promise<void> {
  let pageAlive = true;
  const pageFetch: typeof fetch = (input, init) =>
    pageAlive ? fetch(input, init) : Promise.reject(new TypeError("Failed to fetch"));
  const before = new BulkRunController(emulatorClient({ fetch: pageFetch, retry: { limit: 0 } }));
  const firstRun = runSelection(before, "sleep");
  await waitFor(() => before.progress.finished >= quickRows, 10_000, "the quick rows");
  pageAlive = false;
  expect((await firstRun).phase).toBe("failed");
}

describe("BulkRunController (task pane bulk runs against the emulator)", () => {
  let workbook: MockWorkbook;
  let uninstall: () => void = () => undefined;

  beforeEach(async () => {
    await resetEmulator();
  });
  afterEach(() => uninstall());

  it("should write every output of a 500-row bulk to its own row, with no more write syncs than polls", async () => {
    // `sleep` returns its `ms` input as `slept`: each row's output names its row; durations
    // spread over several polls (up to 4990 ms × time scale 0.05).
    const rows: MockCellValue[][] = [["ms"]];
    for (let i = 0; i < 500; i++) rows.push([i * 10]);
    workbook = workbookWith(rows);
    uninstall = workbook.install();

    const controller = new BulkRunController(emulatorClient());
    const progress = await runSelection(controller, "sleep");

    expect(progress.phase).toBe("done");
    expect(progress.counts.success).toBe(500);
    expect(workbook.values("Sheet1", "B1:C1")).toEqual([[STATUS_HEADER, "slept"]]);
    const written = workbook.values("Sheet1", "B2:C501");
    written.forEach(([status, slept], i) => {
      expect(status)
        .withContext(`row ${i + 2}`)
        .toBe("success");
      expect(slept)
        .withContext(`row ${i + 2}`)
        .toBe(i * 10);
    });
    const stats = await emulatorStats();
    expect(stats.bulkRunsCreated).toBe(500);
    expect(stats.requests.bulkStart).toBe(1);
    expect(workbook.stats.writeSyncs).toBeGreaterThan(1);
    // One write sync per poll at most, plus naming the block before the run and deleting the
    // name after it.
    expect(workbook.stats.writeSyncs).toBeLessThanOrEqual(stats.requests.getBulkRuns + 2);
    expect(workbook.nameList()).toEqual([]);
    // Finished: nothing left to resume.
    expect(storedJobKeys(workbook)).toEqual([]);
  });

  it("should cancel mid-run: finished rows keep their outputs, the others are marked cancelled", async () => {
    const rows: MockCellValue[][] = [["ms"]];
    for (let i = 0; i < 20; i++) rows.push([i < 5 ? 0 : 200_000]); // 5 quick rows, 15 of 10 s
    workbook = workbookWith(rows);
    uninstall = workbook.install();
    const controller = new BulkRunController(emulatorClient());
    const seen: BulkProgress[] = [];
    controller.progress$.subscribe((progress) => seen.push(progress));

    const finished = runSelection(controller, "sleep");
    await waitFor(() => controller.progress.finished >= 5, 10_000, "the quick rows");
    await controller.cancel();
    const progress = await finished;

    expect(progress.phase).toBe("cancelled");
    expect(progress.cancelled).toBe(15);
    expect(progress.counts.inProgress + progress.counts.pending).toBe(0);
    const written = workbook.values("Sheet1", "B2:C21");
    written
      .slice(0, 5)
      .forEach(([status, slept]) => expect([status, slept]).toEqual(["success", 0]));
    written
      .slice(5)
      .forEach(([status, slept]) => expect([status, slept]).toEqual([CANCELLED_STATUS, ""]));
    await waitFor(
      async () => (await emulatorStats()).requests.cancelBulk >= 1,
      5_000,
      "cancelBulk"
    );
    const stats = await emulatorStats();
    expect(stats.requests.cancelBulk).toBe(1);
    expect(stats.cancelledGroups).toBe(1);
    expect(storedJobKeys(workbook)).toEqual([]);
    expect(seen.some((p) => p.phase === "cancelling")).toBeTrue();
  });

  it("should resume after a reload without running any finished row again", async () => {
    const rows: MockCellValue[][] = [["ms"]];
    for (let i = 0; i < 30; i++) rows.push([i < 10 ? i : 20_000 + i]); // 10 quick, 20 of about 1 s
    workbook = workbookWith(rows);
    uninstall = workbook.install();
    await runUntilPageDies(10);
    workbook.reload();
    const statsBefore = await emulatorStats();

    // The reopened pane finds the stored bulk and resumes it.
    const job = loadBulkJob();
    expect(job?.token?.groupIds.length).toBe(1);
    expect(job?.handled.length).toBeGreaterThanOrEqual(10);
    const syncsBefore = workbook.stats.writeSyncs;
    const after = new BulkRunController(emulatorClient());
    const progress = await after.resume(job!);

    expect(progress.phase).toBe("done");
    expect(progress.counts.success).toBe(30);
    const stats = await emulatorStats();
    expect(stats.requests.bulkStart).toBe(statsBefore.requests.bulkStart);
    expect(stats.bulkRunsCreated).toBe(30);
    expect(stats.runsCreated).toBe(0);
    expect(stats.requests.cancelBulk).toBe(0);
    const written = workbook.values("Sheet1", "B2:C31");
    written.forEach(([status, slept], i) =>
      expect([status, slept]).toEqual(["success", rows[i + 1][0]])
    );
    expect(workbook.stats.writeSyncs).toBeGreaterThan(syncsBefore);
    expect(storedJobKeys(workbook)).toEqual([]);
  });

  it("should run identical rows once and start nothing for rows whose results are remembered", async () => {
    const rows: MockCellValue[][] = [["ms"], [5], [6], [5], [6], [5]];
    workbook = workbookWith(rows);
    uninstall = workbook.install();
    const client = emulatorClient();
    expect((await runSelection(new BulkRunController(client), "sleep")).counts.success).toBe(5);
    expect((await emulatorStats()).bulkRunsCreated).toBe(2);
    expect(workbook.values("Sheet1", "C2:C6").flat()).toEqual([5, 6, 5, 6, 5]);

    // Run again over the same rows: every result is remembered, so nothing is sent at all.
    workbook.setValues("Sheet1", "B2", [[""], [""], [""], [""], [""]]);
    const again = await runSelection(new BulkRunController(client), "sleep");
    expect(again.counts.success).toBe(5);
    const stats = await emulatorStats();
    expect(stats.bulkRunsCreated).toBe(2);
    expect(stats.requests.bulkStart).toBe(1);
    expect(workbook.values("Sheet1", "B2:B6").flat()).toEqual(Array(5).fill("success"));
  });

  it("should resume a bulk whose identical rows shared runs, each result back in its own row", async () => {
    const rows: MockCellValue[][] = [["ms"]];
    // 4 quick rows over 2 values, then 8 of about 1 s over 4 values: 6 runs for 12 rows.
    for (let i = 0; i < 12; i++) rows.push([i < 4 ? i % 2 : 20_000 + (i % 4)]);
    workbook = workbookWith(rows);
    uninstall = workbook.install();
    await runUntilPageDies(4);
    workbook.reload();
    const statsBefore = await emulatorStats();

    const job = loadBulkJob()!;
    expect(job.token?.rows).toEqual([0, 1, 0, 1, 2, 3, 4, 5, 2, 3, 4, 5]);
    const progress = await new BulkRunController(emulatorClient()).resume(job);

    expect(progress.phase).toBe("done");
    expect(progress.counts.success).toBe(12);
    const stats = await emulatorStats();
    expect(stats.bulkRunsCreated).toBe(6);
    expect(stats.requests.bulkStart).toBe(statsBefore.requests.bulkStart);
    workbook.values("Sheet1", "B2:C13").forEach(([status, slept], i) =>
      expect([status, slept])
        .withContext(`row ${i + 2}`)
        .toEqual(["success", rows[i + 1][0]])
    );
  });

  it("should resume after the sheet was renamed while the workbook was closed", async () => {
    const rows: MockCellValue[][] = [["ms"]];
    for (let i = 0; i < 12; i++) rows.push([i < 4 ? i : 20_000 + i]); // 4 quick, 8 of about 1 s
    workbook = workbookWith(rows);
    uninstall = workbook.install();
    await runUntilPageDies(4);
    workbook.reload();

    workbook.renameSheet("Sheet1", "Q3 leads");
    const progress = await new BulkRunController(emulatorClient()).resume(loadBulkJob()!);

    expect(progress.phase).toBe("done");
    expect(progress.counts.success).toBe(12);
    workbook
      .values("Q3 leads", "B2:C13")
      .forEach(([status, slept], i) =>
        expect([status, slept]).toEqual(["success", rows[i + 1][0]])
      );
  });

  it("should mark a row edited during the run stale and not overwrite it", async () => {
    const rows: MockCellValue[][] = [["ms"]];
    for (let i = 0; i < 6; i++) rows.push([i === 3 ? 20_000 : 0]); // row 5 (i = 3) takes ~1 s
    workbook = workbookWith(rows);
    uninstall = workbook.install();
    const controller = new BulkRunController(emulatorClient());

    const finished = runSelection(controller, "sleep");
    await waitFor(() => controller.progress.finished >= 5, 10_000, "the quick rows");
    workbook.setValues("Sheet1", "A5", [[12_345]]); // the user types over row 5's input
    const progress = await finished;

    expect(progress.phase).toBe("done");
    expect(progress.stale).toBe(1);
    expect(workbook.values("Sheet1", "A5:C5")).toEqual([[12_345, STALE_STATUS, ""]]);
    expect(workbook.values("Sheet1", "B4:C4")).toEqual([["success", 0]]);
    expect(progress.retryable).toBe(1);
  });

  it("should keep formula-looking and number-looking text outputs as text", async () => {
    const texts = [
      "=1+1",
      "+SUM(A1:A3)",
      "-minus",
      "@mention",
      "00123",
      "TRUE",
      '=HYPERLINK("http://x")',
    ];
    workbook = workbookWith([["text"], ...texts.map((text) => [text])]);
    // The inputs themselves are typed as text (a leading apostrophe in Excel).
    texts.forEach((text, i) => workbook.setValues("Sheet1", `A${i + 2}`, [[`'${text}`]]));
    uninstall = workbook.install();

    const progress = await runSelection(new BulkRunController(emulatorClient()), "echo");

    expect(progress.counts.success).toBe(texts.length);
    texts.forEach((text, i) => {
      const cell = workbook.cell("Sheet1", `C${i + 2}`);
      expect(cell.value).withContext(text).toBe(text);
      expect(cell.formula).withContext(text).toBeUndefined();
      expect(cell.numberFormat).withContext(text).toBe("@");
    });
  });

  it("should write objects and arrays as JSON and failures with the service's message", async () => {
    workbook = workbookWith([["text"], ["write to a@b.com and c@d.org"]]);
    uninstall = workbook.install();
    await runSelection(new BulkRunController(emulatorClient()), "extract-emails");
    expect(workbook.values("Sheet1", "B1:D2")).toEqual([
      [STATUS_HEADER, "emails", "count"],
      ["success", '["a@b.com","c@d.org"]', 2],
    ]);

    const failing = workbookWith([["x"], [1]]);
    uninstall();
    uninstall = failing.install();
    const progress = await runSelection(new BulkRunController(emulatorClient()), "always-fails");
    expect(progress.counts.failure).toBe(1);
    expect(String(failing.values("Sheet1", "B2")[0][0])).toMatch(/^failure: \S/);
  });

  it("should retry just the failed rows in a new bulk", async () => {
    workbook = workbookWith([["ms"], [0], [200_000], [0]]);
    uninstall = workbook.install();
    const controller = new BulkRunController(emulatorClient());
    const first = runSelection(controller, "sleep");
    await waitFor(() => controller.progress.finished >= 2, 10_000, "the quick rows");
    await controller.cancel();
    expect((await first).retryable).toBe(1);
    workbook.setValues("Sheet1", "A3", [[1]]);

    const progress = await controller.retryFailed();

    expect(progress.phase).toBe("done");
    expect(progress.total).toBe(1);
    expect(workbook.values("Sheet1", "B2:C4")).toEqual([
      ["success", 0],
      ["success", 1],
      ["success", 0],
    ]);
    const stats = await emulatorStats();
    expect(stats.requests.bulkStart).toBe(2);
    // The two rows of 0 shared one run; the cancelled row, retried with 1, is the third.
    expect(stats.bulkRunsCreated).toBe(3);
  });

  it("should never put the API key in document settings or any cell", async () => {
    const { apiKey } = emulatorForBrowser();
    const rows: MockCellValue[][] = [["ms"]];
    for (let i = 0; i < 10; i++) rows.push([i < 5 ? 0 : 200_000]);
    workbook = workbookWith(rows);
    uninstall = workbook.install();
    const controller = new BulkRunController(emulatorClient());
    const run = runSelection(controller, "sleep");
    await waitFor(() => controller.progress.finished >= 5, 10_000, "the quick rows");

    // Mid-run, the resume state is stored: it must hold what resume needs, and no key.
    const stored = JSON.stringify(workbook.savedSettings);
    expect(stored).toContain(BULK_JOB_SETTING);
    expect(stored).not.toContain(apiKey);
    await controller.cancel();
    await run;
    expect(JSON.stringify(workbook.settings)).not.toContain(apiKey);
    for (const { cell } of workbook.allCells()) {
      expect(String(cell.value)).not.toContain(apiKey);
      expect(cell.formula ?? "").not.toContain(apiKey);
    }
  });
});
