import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import { STATUS_HEADER } from "../../taskpane/sheet/outputLayout.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { mountBulkView } from "../../taskpane/ui/bulkView.js";
import { registerFluent } from "../../taskpane/ui/registerFluent.js";
import { emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { emulatorClient, waitFor, bulkViewDeps } from "./taskpaneTestKit.js";

type ValueElement = HTMLElement & { value: string };

/** Inputs in A, the user's notes in B (header and data): where status would go. */
function notesRightOfInputs(): MockWorkbook {
  return new MockWorkbook({
    sheets: {
      Sheet1: [
        ["text", "Notes"],
        ["one", "keep 1"],
        ["two", "keep 2"],
      ],
    },
    selection: "Sheet1!A1:A3",
  });
}

describe("Task pane never overwrites the user's cells (against the emulator)", () => {
  let uninstall: () => void = () => undefined;
  let root: HTMLElement;
  let workbook: MockWorkbook;

  beforeEach(async () => {
    await resetEmulator();
    registerFluent();
    root = document.createElement("div");
    document.body.append(root);
    workbook = notesRightOfInputs();
    uninstall = workbook.install();
    await mountBulkView(root, bulkViewDeps(new BulkRunController(emulatorClient())));
    (root.querySelector("#spell-id") as ValueElement).value = "echo";
  });
  afterEach(() => {
    root.remove();
    uninstall();
  });

  const find = (id: string) => root.querySelector(`#${id}`) as ValueElement;
  const text = (id: string) => find(id).textContent ?? "";
  const useSelection = async () => {
    find("use-selection").click();
    await waitFor(() => text("plan-summary") !== "", 5_000, "the plan");
  };

  it("should offer the choice, insert new columns by default, and move the user's notes right unwritten", async () => {
    await useSelection();
    expect(find("placement-box").hidden).toBeFalse();
    expect(find("placement").value).toBe("insert");
    expect(text("plan-summary")).toContain(
      "New columns are inserted at column B for status and outputs; your data there (B1) moves right, unwritten."
    );
    expect(find("run").hasAttribute("disabled")).toBeFalse();

    find("run").click();
    await waitFor(() => /^Finished/.test(text("progress-text")), 10_000, "the end of the bulk");

    expect(workbook.values("Sheet1", "A1:D3")).toEqual([
      ["text", STATUS_HEADER, "text", "Notes"],
      ["one", "success", "one", "keep 1"],
      ["two", "success", "two", "keep 2"],
    ]);
  });

  it("should run nothing and write nothing when the user chooses to stop", async () => {
    await useSelection();
    find("placement").value = "stop";
    find("placement").dispatchEvent(new Event("change"));

    expect(find("run").hasAttribute("disabled")).toBeTrue();
    expect(text("plan-summary")).toMatch(
      /Column B holds data of yours \(B1: "Notes"\).*Stopped: nothing will run or be written\./
    );
    find("run").click();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await emulatorStats()).requests.bulkStart ?? 0).toBe(0);
    expect(workbook.values("Sheet1", "A1:C3")).toEqual([
      ["text", "Notes", ""],
      ["one", "keep 1", ""],
      ["two", "keep 2", ""],
    ]);
  });

  it("should put the results in a column the user picks, after checking it too", async () => {
    await useSelection();
    find("placement").value = "pick";
    find("placement").dispatchEvent(new Event("change"));
    find("pick-column").value = "e";
    find("use-column").click();
    await waitFor(() => /Status goes in column E/.test(text("plan-summary")), 5_000, "the plan");

    find("run").click();
    await waitFor(() => /^Finished/.test(text("progress-text")), 10_000, "the end of the bulk");

    expect(workbook.values("Sheet1", "A1:F3")).toEqual([
      ["text", "Notes", "", "", STATUS_HEADER, "text"],
      ["one", "keep 1", "", "", "success", "one"],
      ["two", "keep 2", "", "", "success", "two"],
    ]);
  });

  it("should take the column of a cell the user clicks, and still run over the rows read before", async () => {
    await useSelection();
    find("placement").value = "pick";
    find("placement").dispatchEvent(new Event("change"));
    // The user clicks a cell of column D to show where the results go: the selection moves.
    workbook.select("Sheet1!D7");
    find("use-selected-column").click();
    await waitFor(() => /Status goes in column D/.test(text("plan-summary")), 5_000, "the plan");
    expect(find("pick-column").value).toBe("D");
    expect(text("plan-summary")).toContain("2 runs at most will start");

    find("run").click();
    await waitFor(() => /^Finished/.test(text("progress-text")), 10_000, "the end of the bulk");
    expect(workbook.values("Sheet1", "A1:E3")).toEqual([
      ["text", "Notes", "", STATUS_HEADER, "text"],
      ["one", "keep 1", "", "success", "one"],
      ["two", "keep 2", "", "success", "two"],
    ]);
    expect(workbook.values("Sheet1", "D7:E7")).toEqual([["", ""]]);
  });
});

describe("Task pane outputs beyond the checked columns", () => {
  let uninstall: () => void = () => undefined;
  beforeEach(async () => resetEmulator());
  afterEach(() => uninstall());

  it("should insert a column before a later column of the user's rather than write an output over it", async () => {
    // Inputs A–C, status D, outputs E, F, G: the user's "Keep" column is G (offset 3).
    const workbook = new MockWorkbook({
      sheets: {
        Sheet1: [
          ["a", "b", "c", "", "", "", "Keep"],
          ["1", "2", "3", "", "", "", "mine"],
        ],
      },
      selection: "Sheet1!A1:C2",
    });
    uninstall = workbook.install();
    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: false,
    });
    expect(plan.problems).toEqual([]);

    const progress = await new BulkRunController(emulatorClient()).start(selection, plan, "echo");

    expect(progress.phase).toBe("done");
    expect(workbook.values("Sheet1", "D1:H2")).toEqual([
      [STATUS_HEADER, "a", "b", "c", "Keep"],
      ["success", 1, 2, 3, "mine"],
    ]);
  });
});
