import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { loadBulkJob } from "../../taskpane/storedJob/jobStore.js";
import { emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { emulatorClient, waitFor, workbookWith } from "./taskpaneTestKit.js";

describe("BulkRunController when the sheet cannot be written (against the emulator)", () => {
  let uninstall: () => void = () => undefined;
  beforeEach(() => resetEmulator());
  afterEach(() => uninstall());

  it("should not cancel the paid runs it promises: they finish at the service and Resume writes them", async () => {
    // Row 1 finishes after 300 ms; rows 2-4 run for 1.5 s (time scale 0.05).
    const rows: MockCellValue[][] = [["ms"], [6_000], [30_000], [30_001], [30_002]];
    const workbook = workbookWith(rows);
    uninstall = workbook.install();
    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: false,
    });
    const started = new BulkRunController(emulatorClient()).start(selection, plan, "sleep");
    // The group is known (saved before any write): from now on every write fails.
    await waitFor(() => (loadBulkJob()?.token?.groupIds.length ?? 0) > 0, 5_000, "the group id");
    workbook.payloadLimitBytes = 1;
    const failed = await started;

    expect(failed.phase).toBe("failed");
    expect(failed.message).toMatch(
      /^Could not write to the sheet: .*Resume collects its results\.$/
    );
    // Long enough for a cancel to have arrived, had one been sent.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await emulatorStats()).requests.cancelBulk).toBe(0);

    workbook.payloadLimitBytes = 5 * 1024 * 1024;
    const job = loadBulkJob();
    expect(job?.token?.groupIds.length).toBe(1);
    const resumed = await new BulkRunController(emulatorClient()).resume(job!);
    expect(resumed.phase).toBe("done");
    expect(resumed.counts.success).toBe(4);
    expect(workbook.values("Sheet1", "B2:C5")).toEqual([
      ["success", 6_000],
      ["success", 30_000],
      ["success", 30_001],
      ["success", 30_002],
    ]);
    const stats = await emulatorStats();
    expect(stats.bulkRunsCreated).toBe(4);
    expect(stats.requests.cancelBulk).toBe(0);
  });
});
