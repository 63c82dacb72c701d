import type { Playground } from "../../playground/bootPlayground.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { mountSpendingView } from "../../taskpane/ui/spendingView.js";
import { taskPaneDeps } from "../../taskpane/ui/taskPaneDeps.js";
import { emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import { freshAddinState } from "../helpers/freshAddinState.js";
import { waitFor } from "../taskpane/taskpaneTestKit.js";
import { clickCell, dragFillHandle, playgroundWith } from "./playgroundTestKit.js";

const FORMULA = '=SPELL.RUN("summarize", SPELL.INPUTS("text", A2), "summary")';

function reviews(count: number): MockCellValue[][] {
  return [
    ["text", "summary"],
    ...Array.from({ length: count }, (_, i) => [`Review number ${i + 1}. It has a tail.`]),
  ];
}

/**
 * "Allow these" in the pane over the playground: the waiting cells run again on every host,
 * recalculated where the host has `Range.calculate`, called again from the add-in's queue where
 * it has not; never left `#N/A` with the question gone.
 */
describe("the spending guard's 'Allow these' over the playground", () => {
  let playground: Playground | undefined;
  let pane: HTMLElement | undefined;
  let stopView: () => void = () => undefined;

  beforeEach(async () => {
    await freshAddinState({ runsBeforeAsking: 4, batchRuns: false });
    await resetEmulator();
  });
  afterEach(() => {
    stopView();
    pane?.remove();
    playground?.stop();
    playground = undefined;
  });

  async function fillSixAndAllow(excelApiVersion?: string): Promise<Playground> {
    const current = await playgroundWith({ Sheet1: reviews(6) }, { excelApiVersion });
    playground = current;
    const { grid } = current;
    pane = document.createElement("div");
    document.body.append(pane);
    stopView = mountSpendingView(pane, taskPaneDeps().spending);

    clickCell(grid.worksheet("Sheet1"), 1, 1);
    grid.type("Sheet1", "B2", FORMULA);
    dragFillHandle(grid.worksheet("Sheet1"), 1, 6);
    const allow = () => pane?.querySelector<HTMLElement>("#allow-these");
    await waitFor(
      () => pane?.querySelector<HTMLElement>("#spending")?.hidden === false && !!allow(),
      10_000,
      "the question"
    );
    await waitFor(
      () => (pane?.querySelector("#spending-question")?.textContent ?? "").startsWith("2 runs"),
      10_000,
      "2 runs waiting"
    );
    allow()!.click();
    await waitFor(
      () =>
        Array.from({ length: 6 }, (_, i) => grid.shown("Sheet1", `B${i + 2}`)).every((text) =>
          text.startsWith("Review number")
        ),
      10_000,
      "6 results"
    );
    expect(pane.querySelector("#spending-status")?.textContent).toBe("");
    const stats = await emulatorStats();
    expect(stats.runsCreated + stats.bulkRunsCreated).toBe(6);
    return current;
  }

  it("should recalculate the waiting cells where the host can", async () => {
    const current = await fillSixAndAllow();
    expect(current.workbook.rangeCalculations.sort()).toEqual(["Sheet1!B6", "Sheet1!B7"]);
  }, 40_000);

  it("should call the waiting cells again from the add-in's queue where the host cannot recalculate", async () => {
    const current = await fillSixAndAllow("1.5");
    expect(current.workbook.rangeCalculations).toEqual([]);
  }, 40_000);
});
