import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import type { BulkProgress } from "../../taskpane/bulk/bulkRunController.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { resetEmulator } from "../helpers/emulatorClient.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { emulatorClient, waitFor, workbookWith } from "./taskpaneTestKit.js";

async function runSelection(
  controller: BulkRunController,
  spellId: string,
  insertColumns = false
): Promise<BulkProgress> {
  const selection = await readSelection();
  const plan = planBulk(selection, defaultMapping(selection.headers), {
    onlyRowsWithoutOutputs: false,
    insertColumns,
  });
  expect(plan.problems).toEqual([]);
  return controller.start(selection, plan, spellId);
}

describe("the start of a task pane bulk (what the sheet and the progress say)", () => {
  let uninstall: () => void = () => undefined;

  beforeEach(async () => {
    await resetEmulator();
  });
  afterEach(() => uninstall());

  it("should remove the column it inserted when the start fails, and say nothing is running", async () => {
    const workbook = new MockWorkbook({
      sheets: {
        Sheet1: [
          ["text", "note"],
          ["one", "mine"],
          ["two", "mine too"],
        ],
      },
      selection: "Sheet1!A1:A3",
    });
    uninstall = workbook.install();
    const controller = new BulkRunController(emulatorClient());

    const progress = await runSelection(controller, "no-such-spell", true);

    expect(progress.phase).toBe("failed");
    expect(progress.message).toMatch(/not found|404/i);
    expect(progress.counts.inProgress).toBe(0);
    expect(progress.retryable).toBe(0);
    expect(workbook.values("Sheet1", "A1:C3")).toEqual([
      ["text", "note", ""],
      ["one", "mine", ""],
      ["two", "mine too", ""],
    ]);
  });

  it("should clear the previous run's statuses of the rows it runs, at the start", async () => {
    const workbook = workbookWith([["ms"], [0], [0]]);
    uninstall = workbook.install();
    expect((await runSelection(new BulkRunController(emulatorClient()), "sleep")).phase).toBe(
      "done"
    );
    expect(workbook.values("Sheet1", "B2:B3")).toEqual([["success"], ["success"]]);
    workbook.setValues("Sheet1", "A2", [[200_000], [200_000]]);
    workbook.selection = "Sheet1!A1:A3";

    const controller = new BulkRunController(emulatorClient());
    const run = runSelection(controller, "sleep");
    await waitFor(() => controller.progress.phase === "running", 5_000, "the start");
    await waitFor(() => workbook.values("Sheet1", "B2")[0][0] !== "success", 5_000, "cleared");

    expect(workbook.values("Sheet1", "B2:B3")).toEqual([[""], [""]]);
    await controller.cancel();
    await run;
  });

  it("should tick the elapsed time from the start, before any result", async () => {
    uninstall = workbookWith([["ms"], [200_000]]).install();
    const controller = new BulkRunController(emulatorClient());
    const run = runSelection(controller, "sleep");

    await waitFor(
      () => controller.progress.elapsedMs >= 1_000,
      5_000,
      "the elapsed time to pass 1 s"
    );

    expect(controller.progress.phase).toBe("running");
    expect(controller.progress.finished).toBe(0);
    await controller.cancel();
    await run;
  });
});
