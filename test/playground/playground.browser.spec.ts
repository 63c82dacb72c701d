import type { Playground } from "../../playground/bootPlayground.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import { freshAddinState } from "../helpers/freshAddinState.js";
import { waitFor } from "../taskpane/taskpaneTestKit.js";
import { clickCell, dragFillHandle, playgroundWith } from "./playgroundTestKit.js";

/**
 * The playground used as a person would: formulas typed into the grid and filled down with the
 * fill handle, inputs edited, against the emulator through the add-in's real custom functions.
 * The `summarize` spell answers the first sentence of `text`, so each result names its row.
 */
const FORMULA = '=SPELL.RUN("summarize", SPELL.INPUTS("text", A2), "summary")';

function reviews(count: number): MockCellValue[][] {
  return [
    ["text", "summary"],
    ...Array.from({ length: count }, (_, i) => [`Review number ${i + 1}. It has a tail.`]),
  ];
}

/**
 * Each spec's limit here: the sum of its waits' deadlines (up to 3 x 10 s) and some room, so on a
 * loaded machine the waits decide, each naming what did not happen, not Jasmine's 20 s default.
 */
const SPEC_LIMIT_MS = 45_000;

function totalRequests(requests: Record<string, number>): number {
  return Object.values(requests).reduce((sum, count) => sum + count, 0);
}

describe("Playground (the grid, the formula engine and the real SPELL functions)", () => {
  let playground: Playground | undefined;
  let jasmineLimitMs = 0;

  // Set for this describe only (Jasmine reads it as each spec starts), then given back.
  beforeAll(() => {
    jasmineLimitMs = jasmine.DEFAULT_TIMEOUT_INTERVAL;
    jasmine.DEFAULT_TIMEOUT_INTERVAL = SPEC_LIMIT_MS;
  });
  afterAll(() => {
    jasmine.DEFAULT_TIMEOUT_INTERVAL = jasmineLimitMs;
  });

  beforeEach(async () => {
    // The first spec alone starts 100 runs: the guard's default would stop the next spec's runs.
    await freshAddinState({ maxInFlight: 8, batchRuns: true });
    await resetEmulator();
  });
  afterEach(() => {
    playground?.stop();
    playground = undefined;
  });

  it("should fill a typed SPELL.RUN formula down 100 rows into 100 results with at most 4 requests", async () => {
    playground = await playgroundWith({ Sheet1: reviews(100) });
    const { grid } = playground;
    const sheet = grid.worksheet("Sheet1");

    clickCell(sheet, 1, 1);
    grid.type("Sheet1", "B2", FORMULA);
    dragFillHandle(sheet, 1, 100);

    await waitFor(
      () =>
        Array.from({ length: 100 }, (_, i) => grid.shown("Sheet1", `B${i + 2}`)).every((text) =>
          text.startsWith("Review number")
        ),
      15_000,
      "100 results"
    );
    for (let i = 0; i < 100; i++) {
      expect(grid.shown("Sheet1", `B${i + 2}`))
        .withContext(`row ${i + 2}`)
        .toBe(`Review number ${i + 1}.`);
      expect(playground.workbook.cell("Sheet1", `B${i + 2}`).formula)
        .withContext(`formula of row ${i + 2}`)
        .toBe(`=SPELL.RUN("summarize", SPELL.INPUTS("text", A${i + 2}), "summary")`);
    }
    const stats = await emulatorStats();
    expect(stats.runsCreated + stats.bulkRunsCreated).toBe(100);
    expect(totalRequests(stats.requests)).toBeLessThanOrEqual(4);
  });

  it("should run only the edited row again when one input changes", async () => {
    playground = await playgroundWith({ Sheet1: reviews(10) });
    const { grid } = playground;
    clickCell(grid.worksheet("Sheet1"), 1, 1);
    grid.type("Sheet1", "B2", FORMULA);
    dragFillHandle(grid.worksheet("Sheet1"), 1, 10);
    await waitFor(
      () => grid.shown("Sheet1", "B11") === "Review number 10.",
      10_000,
      "the filled results"
    );
    await resetEmulator();

    grid.type("Sheet1", "A5", "An edited review. With a tail.");

    await waitFor(() => grid.shown("Sheet1", "B5") === "An edited review.", 10_000, "row 5 again");
    const stats = await emulatorStats();
    expect(stats.runsCreated + stats.bulkRunsCreated).toBe(1);
    for (let row = 2; row <= 11; row++) {
      if (row === 5) continue;
      expect(grid.shown("Sheet1", `B${row}`)).toBe(`Review number ${row - 1}.`);
    }
  });

  it("should keep each formula on its record's row through a sort, starting no run again", async () => {
    playground = await playgroundWith({ Sheet1: reviews(6) });
    const { grid, workbook } = playground;
    clickCell(grid.worksheet("Sheet1"), 1, 1);
    grid.type("Sheet1", "B2", FORMULA);
    dragFillHandle(grid.worksheet("Sheet1"), 1, 6);
    await waitFor(() => grid.shown("Sheet1", "B7") === "Review number 6.", 10_000, "the results");
    await resetEmulator();

    grid.worksheet("Sheet1").orderBy(0, 1); // Z to A: "Review number 6." first

    await waitFor(
      () =>
        [2, 3, 4, 5, 6, 7].every((row) =>
          String(workbook.cell("Sheet1", `B${row}`).value).startsWith("Review")
        ),
      10_000,
      "the sorted results"
    );
    // The grid renders the model's changes in a batch of its own: wait until it shows them.
    await waitFor(
      () =>
        [2, 3, 4, 5, 6, 7].every(
          (row) =>
            grid.shown("Sheet1", `B${row}`) === String(workbook.cell("Sheet1", `B${row}`).value)
        ),
      10_000,
      "the grid showing the sorted results"
    );
    for (let row = 2; row <= 7; row++) {
      expect(grid.shown("Sheet1", `B${row}`)).toBe(`Review number ${8 - row}.`);
      expect(workbook.cell("Sheet1", `B${row}`).formula).toContain(`A${row})`);
    }
    const stats = await emulatorStats();
    expect(stats.runsCreated + stats.bulkRunsCreated).toBe(0);
  });

  it("should say in the cell's tooltip why a formula shows an error", async () => {
    playground = await playgroundWith({ Sheet1: reviews(1) });
    const { grid } = playground;
    grid.type("Sheet1", "B2", '=SPELL.RUN("summarize", A2)'); // plain text is not an inputs object

    await waitFor(() => grid.shown("Sheet1", "B2") === "#VALUE!", 10_000, "the error");
    const cell = grid.worksheet("Sheet1").getCellFromCoords(1, 1);
    expect(cell.title).toMatch(/JSON|SPELL\.INPUTS/);
  });

  it("should cancel a SPELL.BULK run when its formula is deleted", async () => {
    await resetEmulator({ lazyBulk: { groupVisibleAfterMs: 0, runsPerPoll: 1 } });
    playground = await playgroundWith({ Sheet1: reviews(30) });
    const { grid } = playground;
    grid.type("Sheet1", "D1", '=SPELL.BULK("summarize", A1:A31, "summary")');
    await waitFor(
      async () => (await emulatorStats()).requests.bulkStart === 1,
      10_000,
      "bulkStart"
    );
    await waitFor(() => grid.shown("Sheet1", "D1") === "summary", 10_000, "the spill's header");

    grid.type("Sheet1", "D1", "");

    await waitFor(
      async () => (await emulatorStats()).requests.cancelBulk === 1,
      10_000,
      "cancelBulk"
    );
    expect(grid.shown("Sheet1", "D2")).toBe("");
  });
});
