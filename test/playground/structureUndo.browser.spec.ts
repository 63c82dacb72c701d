import type { Playground } from "../../playground/bootPlayground.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import { freshAddinState } from "../helpers/freshAddinState.js";
import { waitFor } from "../taskpane/taskpaneTestKit.js";
import { clickCell, dragFillHandle, playgroundWith } from "./playgroundTestKit.js";

/**
 * Undo and redo of a sort and of a deleted row in the playground, with the add-in's real custom
 * functions over the emulator. Microsoft's "Undo, redo, or repeat an action": "You can undo,
 * redo, or repeat many actions in Microsoft Excel"; a sort and a deleted row are taken back with
 * the formulas' references, and a custom function's result is not undone: it comes back when its
 * inputs do. The `summarize` spell answers the first sentence of `text`, so each result names
 * its row.
 */
const FORMULA = '=SPELL.RUN("summarize", SPELL.INPUTS("text", A2), "summary")';

function reviews(count: number): MockCellValue[][] {
  return [
    ["text", "summary"],
    ...Array.from({ length: count }, (_, i) => [`Review number ${i + 1}. It has a tail.`]),
  ];
}

/** The sum of the waits' deadlines and some room (Jasmine's 20 s default is less). */
const SPEC_LIMIT_MS = 45_000;

describe("Playground: undo and redo of a sort and a deleted row, with SPELL.RUN results", () => {
  let playground: Playground | undefined;

  beforeEach(async () => {
    await freshAddinState({ maxInFlight: 8, batchRuns: true });
    await resetEmulator();
  });
  afterEach(() => {
    playground?.stop();
    playground = undefined;
  });

  it(
    "should land each result of runs still going in its record's row through a sort undone and redone, starting no run twice",
    async () => {
      // Each request waits 600 ms: the runs are still going while the person sorts and undoes.
      await resetEmulator({ latencyMs: 600 });
      playground = await playgroundWith({ Sheet1: reviews(6) });
      const { grid, workbook } = playground;
      clickCell(grid.worksheet("Sheet1"), 1, 1);
      grid.type("Sheet1", "B2", FORMULA);
      dragFillHandle(grid.worksheet("Sheet1"), 1, 6);
      await waitFor(() => grid.shown("Sheet1", "B7") === "#BUSY!", 5_000, "the runs going");

      grid.worksheet("Sheet1").orderBy(0, 1); // Z to A: "Review number 6." first
      expect(workbook.values("Sheet1", "A2:A2")[0][0]).toMatch(/^Review number 6\./);
      expect(grid.undo()).toBeTrue();
      expect(workbook.values("Sheet1", "A2:A2")[0][0]).toMatch(/^Review number 1\./);
      expect(grid.redo()).toBeTrue();
      expect(workbook.values("Sheet1", "A2:A2")[0][0]).toMatch(/^Review number 6\./);
      expect(grid.undo()).toBeTrue();

      await waitFor(
        () =>
          [2, 3, 4, 5, 6, 7].every((row) => grid.shown("Sheet1", `B${row}`).startsWith("Review")),
        15_000,
        "the results"
      );
      for (let row = 2; row <= 7; row++) {
        expect(workbook.cell("Sheet1", `A${row}`).value).toMatch(
          new RegExp(`^Review number ${row - 1}\\.`)
        );
        expect(workbook.cell("Sheet1", `B${row}`).formula).toContain(`A${row})`);
        expect(grid.shown("Sheet1", `B${row}`)).toBe(`Review number ${row - 1}.`);
      }
      const stats = await emulatorStats();
      expect(Object.values(stats.createdByKey).every((count) => count === 1))
        .withContext(JSON.stringify(stats.createdByKey))
        .toBeTrue();
    },
    SPEC_LIMIT_MS
  );

  it(
    "should bring back a deleted row's formula and its result with undo, starting no run again",
    async () => {
      playground = await playgroundWith({ Sheet1: reviews(4) });
      const { grid, workbook } = playground;
      clickCell(grid.worksheet("Sheet1"), 1, 1);
      grid.type("Sheet1", "B2", FORMULA);
      dragFillHandle(grid.worksheet("Sheet1"), 1, 4);
      await waitFor(() => grid.shown("Sheet1", "B5") === "Review number 4.", 10_000, "the results");
      await resetEmulator();

      grid.worksheet("Sheet1").deleteRow(2, 1); // row 3, as its header's menu deletes it
      expect(workbook.cell("Sheet1", "A3").value).toMatch(/^Review number 3\./);
      expect(grid.undo()).toBeTrue();

      expect(workbook.cell("Sheet1", "A3").value).toMatch(/^Review number 2\./);
      expect(workbook.cell("Sheet1", "B3").formula).toContain("A3)");
      await waitFor(() => grid.shown("Sheet1", "B3") === "Review number 2.", 10_000, "B3's result");
      expect(grid.shown("Sheet1", "B4")).toBe("Review number 3.");
      const stats = await emulatorStats();
      expect(stats.runsCreated + stats.bulkRunsCreated).toBe(0);
    },
    SPEC_LIMIT_MS
  );
});
