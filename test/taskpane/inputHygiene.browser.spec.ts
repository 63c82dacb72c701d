import { BulkRunController } from "../../taskpane/bulkRunController.js";
import { STATUS_HEADER } from "../../taskpane/outputLayout.js";
import { defaultMapping, planBulk } from "../../taskpane/planBulk.js";
import { readSelection } from "../../taskpane/readSelection.js";
import { emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import type { MockCellValue } from "./mockWorkbook.js";
import { emulatorClient, workbookWith } from "./taskpaneTestKit.js";

describe("Task pane input hygiene (against the emulator)", () => {
  let uninstall: () => void = () => undefined;
  beforeEach(async () => resetEmulator());
  afterEach(() => uninstall());

  it("should send no row whose input holds an Excel error, and put which input holds which error in its status", async () => {
    const rows: MockCellValue[][] = [["text"], ["hello"], ["#N/A"], ["world"], ["#DIV/0!"]];
    const workbook = workbookWith(rows);
    uninstall = workbook.install();
    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: false,
    });
    expect(plan.rows.length).toBe(2);

    const progress = await new BulkRunController(emulatorClient()).start(selection, plan, "echo");

    expect(progress.phase).toBe("done");
    expect((await emulatorStats()).bulkRunsCreated).toBe(2);
    expect(workbook.values("Sheet1", "B1:C5")).toEqual([
      [STATUS_HEADER, "text"],
      ["success", "hello"],
      ['skipped: input "text" holds #N/A', ""],
      ["success", "world"],
      ['skipped: input "text" holds #DIV/0!', ""],
    ]);
  });

  it("should not run over a column right of the selection that holds the user's notes under an empty header", async () => {
    const workbook = workbookWith([
      ["text", "", ""],
      ["hello", "", ""],
      ["world", "keep me", ""],
    ]);
    uninstall = workbook.install();
    workbook.select("Sheet1!A1:A3");
    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: false,
    });

    expect(plan.problems[0]).toContain("(B3)");
    expect(workbook.values("Sheet1", "B3")).toEqual([["keep me"]]);
    expect((await emulatorStats()).requests.bulkStart).toBe(0);
  });
});
