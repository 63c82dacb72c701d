import { SpendingGuard } from "../../addin/spending/SpendingGuard.js";
import { readStoredSpending } from "../../addin/spending/storedSpending.js";
import { memoryStorage, useKeyValueStorage } from "../../addin/keyValueStorage.js";
import type { SpendingGuardState } from "../../addin/spendingGuard.js";

const STORAGE_KEY = "answers-document";
const LIMITS = { runsBeforeAsking: 100, dailyRunCap: 1000 };

/**
 * The answers of the pane's question about cells whose inputs kept changing: Block blocks those
 * cells only, Allow these lets each start its next run whatever its inputs, once.
 */
describe("SpendingGuard's answers to the per-cell rule's question", () => {
  let now: number;
  let guard: SpendingGuard;
  let state: SpendingGuardState;

  /** The cell at `address` calculated with input `t`: the guard's refusal, or `undefined` (started). */
  const calculate = (address: string, t: number | string) =>
    guard.admit("summarize", `summarize ${address} ${t}`, 1, address, undefined, true);
  /** The cell gets 4 different inputs: the 4th waits. */
  const makeWait = (address: string) => {
    for (const t of [1, 2, 3]) expect(calculate(address, t)).toBeUndefined();
    expect(calculate(address, 4)?.reason).toBe("changingInputs");
  };

  beforeEach(() => {
    useKeyValueStorage(memoryStorage());
    now = new Date(2026, 10, 26, 9, 0, 0).getTime();
    guard = new SpendingGuard(STORAGE_KEY, undefined, LIMITS, () => now);
    guard.state$.subscribe((next) => (state = next));
  });

  afterAll(() => useKeyValueStorage(undefined));

  it("should block only the cells asked about when Block answers a question about them only", async () => {
    makeWait("Sheet1!B3");
    await guard.decide("allowCells");
    makeWait("Sheet1!B2");

    expect(await guard.decide("block")).toEqual(["Sheet1!B2"]);

    expect(state.decision).toBe("ask");
    expect(state.blockedCells).toEqual(["Sheet1!B2"]);
    expect(state.allowedCells).toEqual(["Sheet1!B3"]);
    expect(state.waitingRuns).toBe(0);
    // The blocked cell starts nothing, a known input neither.
    expect(calculate("Sheet1!B2", 5)?.message).toMatch(/^Blocked: this cell/);
    expect(calculate("Sheet1!B2", 1)?.reason).toBe("blocked");
    // The rest of the workbook runs on: a new cell, the allowed cell.
    expect(calculate("Sheet1!C9", 1)).toBeUndefined();
    expect(calculate("Sheet1!B3", 99)).toBeUndefined();

    // Kept across a reload, until Ask again, which returns the blocked cell to ask again.
    await guard.flush();
    guard = new SpendingGuard(
      STORAGE_KEY,
      await readStoredSpending(STORAGE_KEY),
      LIMITS,
      () => now
    );
    guard.state$.subscribe((next) => (state = next));
    expect(state.blockedCells).toEqual(["Sheet1!B2"]);
    expect(calculate("Sheet1!B2", 6)?.reason).toBe("blocked");
    expect(await guard.decide("unblockCells")).toEqual(["Sheet1!B2"]);
    expect(state.blockedCells).toEqual([]);
    expect(state.allowedCells).toEqual(["Sheet1!B3"]);
    expect(calculate("Sheet1!B2", 6)?.reason).toBe("changingInputs");
    // Ask again ends a block too, and the cells' permission.
    await guard.decide("block");
    expect(await guard.decide("ask")).toContain("Sheet1!B2");
    expect(state).toEqual(jasmine.objectContaining({ blockedCells: [], allowedCells: [] }));
  });

  it("should keep the workbook-wide Block when the question is about the workbook's threshold too", async () => {
    guard.useLimits({ runsBeforeAsking: 4, dailyRunCap: 1000 });
    makeWait("Sheet1!B2");
    expect(calculate("Sheet1!A1", 1)).toBeUndefined();
    expect(calculate("Sheet1!A2", 1)?.reason).toBe("threshold");
    expect(state.reason).toBe("threshold");
    expect(state.changingCells).toEqual(["Sheet1!B2"]);

    await guard.decide("block");

    expect(state.decision).toBe("block");
    expect(state.blockedCells).toEqual([]);
    expect(calculate("Sheet1!Z9", 1)?.message).toMatch(/^Blocked: runs of this workbook/);
  });

  it("should let Allow these start each waiting cell's next run whatever its inputs, once", async () => {
    makeWait("Sheet1!B2");
    makeWait("Sheet1!B3");

    const returned = await guard.decide("allowThese");
    expect(returned.sort()).toEqual(["Sheet1!B2", "Sheet1!B3"]);
    expect(state.waitingRuns).toBe(0);
    // NOW() moved on: the cells are calculated with other inputs than those they waited with.
    expect(calculate("Sheet1!B2", 5)).toBeUndefined();
    expect(calculate("Sheet1!B3", 4)).toBeUndefined();
    // One start each: the next new input asks again.
    expect(calculate("Sheet1!B2", 6)?.reason).toBe("changingInputs");
    expect(calculate("Sheet1!B3", 7)?.reason).toBe("changingInputs");
    // A cell that did not wait got nothing from the answer.
    makeWait("Sheet1!B4");
  });

  it("should say how many inputs the cell got, true for typed values and NOW() alike, within 250 characters", () => {
    for (const t of [1, 2, 3]) calculate("Sheet1!B2", t);
    const message = calculate("Sheet1!B2", 4)?.message ?? "";

    expect(message).toContain("this cell got 4 different inputs in 10 minutes");
    expect(message).toContain("a formula reading NOW() or RAND() changes at every calculation");
    expect(message).not.toContain("inputs change at each calculation");
    expect(message).toContain("Open Spell Run (Home tab)");
    expect(message.length).toBeLessThanOrEqual(250);
  });

  it("should drop a waiting cell from the question when it is answered without a run", () => {
    makeWait("Sheet1!B2");
    makeWait("Sheet1!B3");
    expect(state.changingCells).toEqual(["Sheet1!B2", "Sheet1!B3"]);

    // B2 typed back to an input it ran: a remembered result, no run, the guard not asked.
    guard.answeredWithoutRun("Sheet1!B2");

    expect(state.changingCells).toEqual(["Sheet1!B3"]);
    expect(state.waitingRuns).toBe(1);
  });
});
