import { streamBulk } from "../../functions/bulkSpell.js";
import { spellRun } from "../../functions/functions.js";
import { clearRememberedResults } from "../../addin/rememberedResults.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { memoryStorage, useKeyValueStorage } from "../../addin/keyValueStorage.js";
import { resetSharedClient } from "../../addin/sharedClient.js";
import {
  resetSpendingGuard,
  spendingGuard,
  type SpendingGuardState,
} from "../../addin/spendingGuard.js";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cancelableInvocation, streamingInvocation } from "./support/excelInvocations.js";

interface CellOutcome {
  value?: unknown;
  error?: { code: string; message: string };
}

const DOCUMENT = "https://contoso.example/shared/clock.xlsx";

/**
 * `=SPELL.RUN(spell, A2, "t")` in `address`, A2 holding `t`: a cell reading `=NOW()` gets a new
 * `t` at each calculation, a user trying variants types a new one.
 */
function calculate(address: string, t: number | string, spellId = "echo"): Promise<CellOutcome> {
  const invocation = Object.assign(cancelableInvocation(), { address });
  return spellRun(spellId, [[JSON.stringify({ t })]], [["t"]], invocation).then(
    (row) => ({ value: row[0][0] }),
    (error: { code: string; message: string }) => ({ error })
  );
}

/** Calculates the cell with each of these inputs in turn, as Excel does at each calculation. */
async function calculateEach(address: string, inputs: (number | string)[]): Promise<CellOutcome[]> {
  const outcomes: CellOutcome[] = [];
  for (const t of inputs) outcomes.push(await calculate(address, t));
  return outcomes;
}

async function stateNow(): Promise<SpendingGuardState> {
  const guard = await spendingGuard();
  return new Promise((resolve) => guard.state$.subscribe(resolve).unsubscribe());
}

const ran = (outcomes: CellOutcome[]) => outcomes.filter((cell) => cell.error === undefined).length;

describe("a SPELL.RUN cell whose inputs change at each calculation (NOW(), RAND())", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });

  /** Runs the service created, and the most any one input was run. */
  const created = () => {
    const { stats } = fixture.emulator;
    const perKey = [...Object.values(stats.createdByKey), ...Object.values(stats.bulkCreatedByKey)];
    return { runs: stats.runsCreated + stats.bulkRunsCreated, maxPerInput: Math.max(0, ...perKey) };
  };

  beforeEach(async () => {
    useKeyValueStorage(memoryStorage());
    await resetSpendingGuard({ documentUrl: DOCUMENT });
    await resetSharedClient();
    await clearRememberedResults();
    await saveSettings({
      apiKey: fixture.emulator.apiKey,
      baseUrl: fixture.emulator.baseUrl,
      pollBaseUrl: fixture.emulator.pollBaseUrl,
    });
    fixture.emulator.resetStats();
  });

  afterAll(async () => {
    await resetSpendingGuard();
    await resetSharedClient();
    useKeyValueStorage(undefined);
  });

  it("should start 3 runs, then show #N/A saying it got 4 different inputs, and start nothing more", async () => {
    const outcomes = await calculateEach("Sheet1!B2", [1, 2, 3, 4, 5, 6, 7]);

    expect(outcomes.slice(0, 3).map((cell) => cell.value)).toEqual([1, 2, 3]);
    for (const cell of outcomes.slice(3)) {
      expect(cell.error?.code).toBe("#N/A");
      expect(cell.error?.message).toContain("different inputs in 10 minutes");
      expect(cell.error?.message).toContain("NOW() or RAND()");
      expect(cell.error?.message).toContain("this cell got 4 different inputs in 10 minutes");
      expect(cell.error?.message).toContain("Open Spell Run (Home tab)");
    }
    expect(created()).toEqual({ runs: 3, maxPerInput: 1 });
    // The pane asks about the cell once: one waiting run, however many calculations came.
    expect(await stateNow()).toEqual(
      jasmine.objectContaining({
        waitingRuns: 1,
        changingCells: ["Sheet1!B2"],
        reason: "changingInputs",
      })
    );
  }, 30_000);

  it("should not ask a user who tries two variants of each cell's input, whatever the other cells do", async () => {
    const cells = Array.from({ length: 10 }, (_, row) => `Sheet1!B${row + 2}`);
    const outcomes = await Promise.all(
      cells.map((address, row) => calculateEach(address, [row, `${row} v2`, `${row} v3`]))
    );

    expect(outcomes.flat().every((cell) => cell.error === undefined)).toBeTrue();
    expect(created()).toEqual({ runs: 30, maxPerInput: 1 });
    expect((await stateNow()).waitingRuns).toBe(0);
    // A third variant within the 10 minutes is a 4th different input: that cell asks.
    expect((await calculate("Sheet1!B2", "0 v4")).error?.message).toContain(
      "different inputs in 10 minutes"
    );
    expect(created().runs).toBe(30);
  }, 30_000);

  it("should show a remembered result without asking: the same inputs start nothing", async () => {
    await calculateEach("Sheet1!B2", [1, 2, 3, 4]);
    expect(created().runs).toBe(3);

    // Inputs it ran (a variant typed back) are remembered: shown, nothing started, nothing asked.
    expect(await calculateEach("Sheet1!B2", [2, 1, 3])).toEqual([
      { value: 2 },
      { value: 1 },
      { value: 3 },
    ]);
    expect(created()).toEqual({ runs: 3, maxPerInput: 1 });
    // Another cell's result for the same inputs is remembered too.
    expect(await calculate("Sheet1!C9", 2)).toEqual({ value: 2 });
    expect(created().runs).toBe(3);
  }, 30_000);

  it("should keep counting across a reload (stored with the guard's starts, never in the workbook)", async () => {
    await calculateEach("Sheet1!B2", [1, 2, 3]);
    await resetSpendingGuard({ documentUrl: DOCUMENT });

    const afterReload = await calculate("Sheet1!B2", 4);

    expect(afterReload.error?.message).toContain("different inputs in 10 minutes");
    expect(created().runs).toBe(3);
  }, 30_000);

  it("should run the waiting run once after 'Allow these', and ask again at the next change", async () => {
    await calculateEach("Sheet1!B2", [1, 2, 3, 4]);
    const guard = await spendingGuard();

    expect(await guard.decide("allowThese")).toEqual(["Sheet1!B2"]);
    expect(await calculate("Sheet1!B2", 4)).toEqual({ value: 4 });
    expect((await calculate("Sheet1!B2", 5)).error?.message).toContain(
      "different inputs in 10 minutes"
    );
    expect(created()).toEqual({ runs: 4, maxPerInput: 1 });
  }, 30_000);

  it("should run the cell at each change after 'Allow these cells', across a reload, until 'Ask again'", async () => {
    await calculateEach("Sheet1!B2", [1, 2, 3, 4]);
    await calculateEach("Sheet1!B3", ["b1", "b2"]);
    const guard = await spendingGuard();

    expect(await guard.decide("allowCells")).toEqual(["Sheet1!B2"]);
    expect(await calculateEach("Sheet1!B2", [4, 5, 6])).toEqual([
      { value: 4 },
      { value: 5 },
      { value: 6 },
    ]);
    expect(await stateNow()).toEqual(
      jasmine.objectContaining({ waitingRuns: 0, allowedCells: ["Sheet1!B2"], decision: "ask" })
    );
    await resetSpendingGuard({ documentUrl: DOCUMENT });
    expect(await calculate("Sheet1!B2", 7)).toEqual({ value: 7 });
    // Only that cell: another one still asks at its 4th different input.
    expect(await calculateEach("Sheet1!B3", ["b3", "b4"])).toEqual([
      { value: "b3" },
      jasmine.objectContaining({ error: jasmine.objectContaining({ code: "#N/A" }) }),
    ]);

    await (await spendingGuard()).decide("ask");
    expect((await calculate("Sheet1!B2", 8)).error?.message).toContain(
      "different inputs in 10 minutes"
    );
    expect(created()).toEqual({ runs: 10, maxPerInput: 1 });
  }, 30_000);

  it("should still ask in a workbook allowed to run without asking, and block only that cell on Block", async () => {
    const guard = await spendingGuard();
    await guard.decide("allowWorkbook");
    const outcomes = await calculateEach("Sheet1!B2", [1, 2, 3, 4]);
    expect(ran(outcomes)).toBe(3);
    expect(outcomes[3].error?.message).toContain("different inputs in 10 minutes");

    const blocked = await guard.decide("block");
    expect(blocked).toEqual(["Sheet1!B2"]);
    expect((await calculate("Sheet1!B2", 4)).error?.message).toMatch(/^Blocked: this cell/);
    expect(created().runs).toBe(3);
    // The rest of the workbook runs on, still allowed.
    expect(await calculate("Sheet1!C9", "other")).toEqual({ value: "other" });
    expect(await stateNow()).toEqual(
      jasmine.objectContaining({ decision: "allowWorkbook", blockedCells: ["Sheet1!B2"] })
    );
  }, 30_000);

  it("should run a cell whose inputs moved on since 'Allow these' once, then ask again", async () => {
    await calculateEach("Sheet1!B2", [1, 2, 3, 4]);
    const guard = await spendingGuard();

    expect(await guard.decide("allowThese")).toEqual(["Sheet1!B2"]);
    // NOW() moved on: the pane's recalculation gives the cell a 5th input.
    expect(await calculate("Sheet1!B2", 5)).toEqual({ value: 5 });
    expect((await calculate("Sheet1!B2", 6)).error?.message).toContain(
      "different inputs in 10 minutes"
    );
    expect(created()).toEqual({ runs: 4, maxPerInput: 1 });
  }, 30_000);

  it("should drop a waiting cell from the question once it is typed back to an input it ran", async () => {
    await calculateEach("Sheet1!B2", [1, 2, 3, 4]);
    expect((await stateNow()).changingCells).toEqual(["Sheet1!B2"]);

    expect(await calculate("Sheet1!B2", 2)).toEqual({ value: 2 });

    expect(await stateNow()).toEqual(
      jasmine.objectContaining({ waitingRuns: 0, changingCells: [] })
    );
    expect(created().runs).toBe(3);
  }, 30_000);

  it("should not count a start the service refused (a mistyped spell corrected three times)", async () => {
    for (const spellId of ["ecoh", "ehco", "eco"]) {
      const invocation = Object.assign(cancelableInvocation(), { address: "Sheet1!B2" });
      const refused = await spellRun(spellId, [['{"t": 1}']], [["t"]], invocation).then(
        () => undefined,
        (error: { message: string }) => error
      );
      expect(refused?.message).toContain("404");
    }

    // The three refused starts left the cell its 3 different inputs: the 4th asks.
    const outcomes = await calculateEach("Sheet1!B2", [1, 2, 3, 4]);
    expect(outcomes.slice(0, 3)).toEqual([{ value: 1 }, { value: 2 }, { value: 3 }]);
    expect(outcomes[3].error?.message).toContain("different inputs in 10 minutes");
    expect(created().runs).toBe(3);
  }, 30_000);

  it("should not judge a SPELL.BULK per cell: a table grows row by row", async () => {
    const invocation = Object.assign(streamingInvocation(), { address: "Sheet1!D1" });
    for (let rows = 1; rows <= 5; rows++) {
      const table = [["t"], ...Array.from({ length: rows }, (_, row) => [row + 1])];
      await streamBulk("echo", table, [["t"]], invocation);
    }

    expect(invocation.results.at(-1)).toEqual([["t"], [1], [2], [3], [4], [5]]);
    expect(created()).toEqual({ runs: 5, maxPerInput: 1 });
    // Its starts are not the cell's: a SPELL.RUN typed over it asks at its own 4th input.
    const typedOver = await calculateEach("Sheet1!D1", ["a", "b", "c", "d"]);
    expect(ran(typedOver)).toBe(3);
    expect(typedOver[3].error?.message).toContain("different inputs in 10 minutes");
  }, 30_000);
});
