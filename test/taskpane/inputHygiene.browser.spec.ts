import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import { STATUS_HEADER } from "../../taskpane/sheet/outputLayout.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
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

  it("should send date-formatted cells as the ISO 8601 date the user sees, not Excel's serial, and keep other numbers", async () => {
    const workbook = workbookWith([
      ["when", "amount"],
      [45292, 45292],
      [45292.5625, 12.5],
      [0.5, 3],
    ]);
    uninstall = workbook.install();
    await Excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      sheet.getRange("A2:A4").numberFormat = [["m/d/yyyy"], ["yyyy-mm-dd hh:mm"], ["h:mm AM/PM"]];
      sheet.getRange("B2:B4").numberFormat = [["#,##0.00"], ["General"], ['0.0" days"']];
      await context.sync();
    });
    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: false,
    });
    expect(plan.rows.map((row) => row.inputs)).toEqual([
      { when: "2024-01-01", amount: 45292 },
      { when: "2024-01-01T13:30:00", amount: 12.5 },
      { when: "12:00:00", amount: 3 },
    ]);

    const progress = await new BulkRunController(emulatorClient()).start(selection, plan, "echo");

    expect(progress.phase).toBe("done");
    // The echo spell returns what it was sent: the dates as text, the plain numbers as numbers.
    expect(workbook.values("Sheet1", "D2:D4")).toEqual([
      ["2024-01-01"],
      ["2024-01-01T13:30:00"],
      ["12:00:00"],
    ]);
    // The inputs were not changed, and no row went stale for having been sent as text.
    expect(workbook.values("Sheet1", "A2:A4")).toEqual([[45292], [45292.5625], [0.5]]);
    expect(workbook.values("Sheet1", "C2:C4")).toEqual([["success"], ["success"], ["success"]]);
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

  it("should skip hidden and filtered-out rows by default, and run them when asked", async () => {
    const workbook = workbookWith([["text"], ["shown 1"], ["hidden"], ["shown 2"], ["filtered"]]);
    uninstall = workbook.install();
    workbook.hideRows("Sheet1", [2, 4]); // sheet rows 3 and 5
    const selection = await readSelection();
    expect(selection.hiddenRows).toEqual([1, 3]);
    expect(selection.syncs).toBe(3); // the visible view is read with the header row

    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: false,
    });
    expect(plan.hiddenRows).toBe(2);
    expect(plan.rows.map((row) => row.inputs)).toEqual([{ text: "shown 1" }, { text: "shown 2" }]);
    const everything = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: false,
      runHiddenRows: true,
    });
    expect(everything.hiddenRows).toBe(0);
    expect(everything.rows.length).toBe(4);

    const progress = await new BulkRunController(emulatorClient()).start(selection, plan, "echo");
    expect(progress.phase).toBe("done");
    expect((await emulatorStats()).bulkRunsCreated).toBe(2);
    expect(workbook.values("Sheet1", "B2:C5")).toEqual([
      ["success", "shown 1"],
      ["", ""],
      ["success", "shown 2"],
      ["", ""],
    ]);
  });
});
