import type { Playground } from "../../playground/bootPlayground.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
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

/**
 * Block, "Ask again", "Allow this workbook" and a raised daily cap in the pane over the
 * playground: the cells that waited or were blocked are asked about again or run, once each.
 */
describe("the spending guard's later answers over the playground", () => {
  let playground: Playground | undefined;
  let pane: HTMLElement | undefined;
  let stopView: () => void = () => undefined;

  afterEach(() => {
    stopView();
    pane?.remove();
    playground?.stop();
    playground = undefined;
  });

  const question = () => pane?.querySelector("#spending-question")?.textContent ?? "";
  const shown = (id: string) => {
    const node = pane?.querySelector<HTMLElement>(`#${id}`);
    return !!node && !node.hidden && !node.closest("[hidden]");
  };
  const click = (id: string) => pane?.querySelector<HTMLElement>(`#${id}`)?.click();
  const started = async () => {
    const stats = await emulatorStats();
    return stats.runsCreated + stats.bulkRunsCreated;
  };

  /** Fills B2:B(count+1) with the formula in the playground, under the pane's question. */
  async function fill(count: number): Promise<Playground> {
    const current = await playgroundWith({ Sheet1: reviews(count) });
    playground = current;
    pane = document.createElement("div");
    document.body.append(pane);
    stopView = mountSpendingView(pane, taskPaneDeps().spending);
    clickCell(current.grid.worksheet("Sheet1"), 1, 1);
    current.grid.type("Sheet1", "B2", FORMULA);
    dragFillHandle(current.grid.worksheet("Sheet1"), 1, count);
    return current;
  }
  const cells = (current: Playground, from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => current.grid.shown("Sheet1", `B${from + i}`));

  it("should ask again about the blocked cells after 'Ask again', and run them once on 'Allow this workbook'", async () => {
    await freshAddinState({ runsBeforeAsking: 4, batchRuns: false });
    await resetEmulator();
    const current = await fill(7);
    await waitFor(() => question().startsWith("3 runs"), 10_000, "3 runs waiting");
    expect(question()).toContain("started 4 runs in the last 10 minutes");

    click("block-workbook");
    const why = (address: string) => current.engine.messageAt("Sheet1", address) ?? "";
    await waitFor(
      () => ["B6", "B7", "B8"].every((address) => why(address).startsWith("Blocked")),
      10_000,
      "the blocked cells"
    );
    await waitFor(() => shown("ask-again"), 10_000, "Ask again");
    click("ask-again");
    await waitFor(() => question().startsWith("3 runs"), 10_000, "the question again");
    expect(shown("allow-workbook")).toBeTrue();

    click("allow-workbook");
    await waitFor(
      () => cells(current, 2, 8).every((text) => text.startsWith("Review number")),
      10_000,
      "7 results"
    );
    expect(await started()).toBe(7);
    expect(pane?.querySelector("#spending-status")?.textContent).toBe("");
  }, 40_000);

  it("should run the cells waiting at the daily cap once the cap is raised in Settings", async () => {
    await freshAddinState({ dailyRunCap: 3, batchRuns: false });
    await resetEmulator();
    const current = await fill(10);
    await waitFor(() => question().startsWith("7 runs"), 10_000, "7 runs waiting");
    expect(question()).toContain("daily cap of 3 runs");
    expect(shown("daily-cap-settings")).toBeTrue();

    await saveSettings({ dailyRunCap: 300 });
    await waitFor(
      () => cells(current, 2, 11).every((text) => text.startsWith("Review number")),
      10_000,
      "10 results"
    );
    expect(pane?.querySelector<HTMLElement>("#spending")?.hidden).toBeTrue();
    expect(await started()).toBe(10);
  }, 40_000);
});
