import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { resetEmulator } from "../helpers/emulatorClient.js";
import { emulatorClient, waitFor, workbookWith } from "./taskpaneTestKit.js";

describe("output cells typed into during a task pane bulk", () => {
  let uninstall: () => void = () => undefined;

  beforeEach(async () => {
    await resetEmulator();
  });
  afterEach(() => uninstall());

  it("should keep what the user typed and put the row's result with the kept results", async () => {
    // `sleep` answers its `ms` as `slept`; 40,000 ms are 2 s at the emulator's time scale.
    const workbook = workbookWith([["ms"], [0], [40_000], [40_000]]);
    uninstall = workbook.install();
    const controller = new BulkRunController(emulatorClient());
    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: false,
    });
    const run = controller.start(selection, plan, "sleep");
    await waitFor(() => controller.progress.finished >= 1, 10_000, "the quick row");
    expect(workbook.values("Sheet1", "B1:C1")).toEqual([["Spell status", "slept"]]);

    workbook.setValues("Sheet1", "C3", [["my own note"]]);
    const progress = await run;

    expect(progress.phase).toBe("done");
    expect(workbook.values("Sheet1", "C2:C4")).toEqual([[0], ["my own note"], [40_000]]);
    expect(progress.kept).toBe(1);
    expect(controller.keptResults()).toContain("40000");
  }, 20_000);
});
