import { mountTaskPane } from "../../taskpane/ui/mountTaskPane.js";
import { taskPaneDeps } from "../../taskpane/ui/taskPaneDeps.js";
import type { Playground } from "../../playground/bootPlayground.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { resetEmulator } from "../helpers/emulatorClient.js";
import { freshAddinState } from "../helpers/freshAddinState.js";
import { waitFor } from "../taskpane/taskpaneTestKit.js";
import { dragSelect, playgroundWith } from "./playgroundTestKit.js";

type ValueElement = HTMLElement & { value: string };

/**
 * The real task pane over the playground's grid: a person selects a column, runs `summarize`
 * over it, and sorts the sheet while the run goes on. `summarize` answers the first sentence of
 * `text`, so every result names the record it belongs to.
 */
describe("Task pane over the playground's grid", () => {
  let playground: Playground | undefined;
  let paneElement: HTMLElement | undefined;

  beforeEach(async () => {
    await freshAddinState({ maxInFlight: 8 });
    // Runs appear a few per poll, so the sort lands in the middle of the run.
    await resetEmulator({ lazyBulk: { groupVisibleAfterMs: 100, runsPerPoll: 4 } });
  });
  afterEach(() => {
    playground?.stop();
    paneElement?.remove();
  });

  it("should write each result into its record's row when the sheet is sorted during the run", async () => {
    const rows: MockCellValue[][] = [["text"]];
    for (let i = 1; i <= 24; i++) rows.push([`Review ${String(i).padStart(2, "0")}. Tail ${i}.`]);
    playground = await playgroundWith({ Sheet1: rows });
    const { grid, workbook } = playground;
    paneElement = document.createElement("main");
    document.body.append(paneElement);
    await mountTaskPane(paneElement, taskPaneDeps());
    const pane = paneElement;
    const text = (id: string) => pane.querySelector(`#${id}`)?.textContent ?? "";
    const click = (id: string) => (pane.querySelector(`#${id}`) as HTMLElement).click();

    dragSelect(grid.worksheet("Sheet1"), { column: 0, row: 0 }, { column: 0, row: 24 });
    expect(workbook.selection).toBe("Sheet1!A1:A25");
    (pane.querySelector("#spell-id") as ValueElement).value = "summarize";
    click("use-selection");
    await waitFor(() => /will start/.test(text("plan-summary")), 10_000, "the plan");
    click("run");
    await waitFor(
      () => {
        const done = Number(/(\d+) \/ \d+ done/.exec(text("progress-text"))?.[1] ?? 0);
        return done >= 4 && done < 24;
      },
      15_000,
      "a run in the middle"
    );

    // The person sorts the sheet, Z to A, through the grid (row 1 keeps the column names).
    grid.worksheet("Sheet1").orderBy(0, 1);
    expect(workbook.values("Sheet1", "A2:A2")[0][0]).toMatch(/^Review 24\./);

    await waitFor(() => /^Finished/.test(text("progress-text")), 30_000, "the end of the run");
    const header = workbook.values("Sheet1", "A1:E1")[0];
    const summaryColumn = header.indexOf("summary");
    expect(summaryColumn).toBeGreaterThan(0);
    const table = workbook.values("Sheet1", `A2:E25`);
    table.forEach((row, i) => {
      expect(row[summaryColumn])
        .withContext(`row ${i + 2}`)
        .toBe(String(row[0]).split(" Tail")[0]);
    });
    // What the grid shows is the model's cells.
    expect(grid.shown("Sheet1", "A2")).toBe(String(table[0][0]));
    // The pane polls on its own clock (about 9 s for the 24 runs here): the waits above (10 +
    // 15 + 30 s) set the deadlines, not Jasmine's 20 s default, so a loaded machine has room.
  }, 60_000);
});
