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
import { spendingGate } from "../../addin/spendingGate.js";
import { lastValueFrom } from "rxjs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import {
  cancelableInvocation,
  streamingInvocation,
  type TestStreamingInvocation,
} from "./support/excelInvocations.js";

interface CellOutcome {
  address: string;
  value?: unknown;
  error?: { code: string; message: string };
}

/** `=SPELL.RUN("echo", {"i": n}, "i")` in B(n+2), as a filled-down column calls it. */
function runCell(row: number): Promise<CellOutcome> {
  const address = `Sheet1!B${row + 2}`;
  const invocation = Object.assign(cancelableInvocation(), { address });
  return spellRun("echo", [[JSON.stringify({ i: row })]], [["i"]], invocation).then(
    (value) => ({ address, value: value[0][0] }),
    (error: { code: string; message: string }) => ({ address, error })
  );
}

/** Excel recalculating the cells at these addresses (what the pane asks for after a decision). */
function recalculate(addresses: string[]): Promise<CellOutcome[]> {
  return Promise.all(addresses.map((address) => runCell(Number(address.slice(8)) - 2)));
}

const rows = (count: number, from = 0) => Array.from({ length: count }, (_, index) => from + index);

/** `=SPELL.BULK("echo", table, "i")` in Sheet1!D1 over a table of `i` = `from`… (a 0 row is blank). */
async function bulkCell(count: number, from = 1): Promise<TestStreamingInvocation> {
  const invocation = Object.assign(streamingInvocation(), { address: "Sheet1!D1" });
  await streamBulk("echo", [["i"], ...rows(count, from).map((i) => [i])], [["i"]], invocation);
  return invocation;
}

/** The spill of all rows as the echo spell answers them. */
const echoSpill = (count: number, from = 1) => [["i"], ...rows(count, from).map((i) => [i])];

describe("spending guard (SPELL.RUN and SPELL.BULK against the emulator)", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });

  /** Runs the service created, single and in bulk, and whether any input ran twice. */
  const created = () => {
    const { stats } = fixture.emulator;
    const perKey = [...Object.values(stats.createdByKey), ...Object.values(stats.bulkCreatedByKey)];
    return {
      runs: stats.runsCreated + stats.bulkRunsCreated,
      maxPerInput: Math.max(0, ...perKey),
    };
  };

  beforeEach(async () => {
    useKeyValueStorage(memoryStorage());
    await resetSpendingGuard({ documentUrl: "https://contoso.example/shared/budget.xlsx" });
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

  it("should start at most the threshold of 1,000 filled-down cells, then all after 'allow these', none twice", async () => {
    const first = await Promise.all(rows(1000).map(runCell));

    const finished = first.filter((cell) => cell.error === undefined);
    const waiting = first.filter((cell) => cell.error !== undefined);
    expect(finished.length).toBe(100);
    expect(created().runs).toBe(100);
    expect(waiting.length).toBe(900);
    for (const cell of waiting) {
      expect(cell.error?.code).toBe("#N/A");
      expect(cell.error?.message).toContain("Waiting for your OK");
      expect(cell.error?.message).toContain("Open Spell Run (Home tab)");
    }
    const guard = await spendingGuard();
    const state = await new Promise((resolve) => guard.state$.subscribe(resolve).unsubscribe());
    expect(state).toEqual(
      jasmine.objectContaining({ waitingRuns: 900, spells: [{ spellId: "echo", runs: 900 }] })
    );

    const addresses = await guard.decide("allowThese");
    expect(addresses.length).toBe(900);
    const second = await recalculate(addresses);

    expect(second.every((cell) => cell.error === undefined)).toBeTrue();
    for (const cell of [...finished, ...second]) {
      expect(cell.value).toBe(Number(cell.address.slice(8)) - 2);
    }
    expect(created()).toEqual({ runs: 1000, maxPerInput: 1 });
  }, 60_000);

  it("should not count cells answered by a remembered result or by a run in flight", async () => {
    // 300 cells over 50 inputs: 50 runs, the identical cells share them.
    const shared = await Promise.all(rows(300).map((row) => runCell(row % 50)));
    expect(shared.every((cell) => cell.error === undefined)).toBeTrue();
    // The same 50 again (a recalculation): remembered, nothing counted, so 50 more may start.
    await Promise.all(rows(50).map(runCell));
    const fresh = await Promise.all(rows(60, 50).map(runCell));

    expect(fresh.filter((cell) => cell.error === undefined).length).toBe(50);
    expect(created()).toEqual({ runs: 100, maxPerInput: 1 });
  }, 60_000);

  it("should remember 'allow this workbook' for this document only, across a reload", async () => {
    await Promise.all(rows(150).map(runCell));
    const guard = await spendingGuard();
    await recalculate(await guard.decide("allowWorkbook"));
    expect(created().runs).toBe(150);

    await resetSpendingGuard({ documentUrl: "https://contoso.example/shared/budget.xlsx" });
    const afterReload = await Promise.all(rows(200, 150).map(runCell));
    expect(afterReload.every((cell) => cell.error === undefined)).toBeTrue();
    expect(created().runs).toBe(350);

    // A copy saved elsewhere is another document: asked again (the limit is counted afresh).
    await resetSpendingGuard({ documentUrl: "https://contoso.example/inbox/budget.xlsx" });
    const other = await Promise.all(rows(150, 350).map(runCell));
    expect(other.filter((cell) => cell.error === undefined).length).toBe(100);
  }, 60_000);

  it("should start nothing once blocked, and tell the waiting cells so", async () => {
    await saveSettings({ runsBeforeAsking: 10 });
    await Promise.all(rows(30).map(runCell));
    const guard = await spendingGuard();
    const again = await recalculate(await guard.decide("block"));

    expect(again.length).toBe(20);
    for (const cell of again) expect(cell.error?.message).toMatch(/^Blocked/);
    const later = await Promise.all(rows(5, 30).map(runCell));
    expect(later.every((cell) => cell.error?.message.startsWith("Blocked"))).toBeTrue();
    expect(created().runs).toBe(10);

    await resetSpendingGuard({ documentUrl: "https://contoso.example/shared/budget.xlsx" });
    const afterReload = await runCell(40);
    expect(afterReload.error?.message).toMatch(/^Blocked/);
  }, 60_000);

  it("should start nothing for a SPELL.BULK over more rows than the threshold, then run it once after 'allow these'", async () => {
    const held = await bulkCell(150);

    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);
    expect(created().runs).toBe(0);
    expect(held.results.length).toBe(1);
    const waiting = held.results[0] as { code: string; message: string };
    expect(waiting.code).toBe("#N/A");
    expect(waiting.message).toContain("Waiting for your OK: this bulk would start 150 runs");
    expect(waiting.message).toContain("Open Spell Run (Home tab)");
    const guard = await spendingGuard();
    const state = await new Promise((resolve) => guard.state$.subscribe(resolve).unsubscribe());
    expect(state).toEqual(
      jasmine.objectContaining({ waitingRuns: 150, spells: [{ spellId: "echo", runs: 150 }] })
    );

    expect(await guard.decide("allowThese")).toEqual(["Sheet1!D1"]);
    const recalculated = await bulkCell(150);

    expect(recalculated.results.at(-1)).toEqual(echoSpill(150));
    expect(fixture.emulator.stats.requests.bulkStart).toBe(1);
    expect(created()).toEqual({ runs: 150, maxPerInput: 1 });
  }, 60_000);

  it("should start a SPELL.BULK within the threshold at once and count its runs sent, not its remembered rows", async () => {
    const first = await bulkCell(60);
    expect(first.results.at(-1)).toEqual(echoSpill(60));
    expect(fixture.emulator.stats.requests.bulkStart).toBe(1);

    // 90 rows, 60 of them remembered: 30 runs sent, 90 counted in all.
    const second = await bulkCell(90);
    expect(second.results.at(-1)).toEqual(echoSpill(90));
    expect(fixture.emulator.stats.requests.bulkStart).toBe(2);

    // 10 more may start before the threshold of 100.
    const cells = await Promise.all(rows(20, 1000).map(runCell));
    expect(cells.filter((cell) => cell.error === undefined).length).toBe(10);
    expect(created()).toEqual({ runs: 100, maxPerInput: 1 });
  }, 60_000);

  it("should hold an allowed workbook at the daily cap, which counts the pane's bulk runs too", async () => {
    await saveSettings({ dailyRunCap: 120 });
    const guard = await spendingGuard();
    await guard.decide("allowWorkbook");
    guard.chargeBulk(20);
    expect(() => guard.chargeBulk(101)).toThrowError(/daily cap|cap of 120/);

    const cells = await Promise.all(rows(150).map(runCell));
    const waiting = cells.filter((cell) => cell.error !== undefined);
    expect(waiting.length).toBe(50);
    expect(waiting[0].error?.message).toContain("daily cap of 120 runs");
    expect(created().runs).toBe(100);
  }, 60_000);

  it("should keep the 10-minute window across reloads: 5 reloads do not give 5 thresholds", async () => {
    await saveSettings({ runsBeforeAsking: 10 });
    let started = 0;
    for (let reload = 0; reload < 5; reload++) {
      await resetSpendingGuard({ documentUrl: "https://contoso.example/shared/budget.xlsx" });
      const cells = await Promise.all(rows(10, reload * 10).map(runCell));
      started += cells.filter((cell) => cell.error === undefined).length;
    }
    expect(started).toBe(10);
    expect(created().runs).toBe(10);
    const guard = await spendingGuard();
    const state = await new Promise<{ waitingRuns: number }>((resolve) =>
      guard.state$.subscribe(resolve).unsubscribe()
    );
    expect(state.waitingRuns).toBe(10); // the last reload's cells ask; earlier ones were reloaded away
  }, 60_000);

  it("should not let a different file saved at the same address inherit 'allow this workbook'", async () => {
    const url = "https://contoso.example/shared/budget.xlsx";
    await resetSpendingGuard({ documentUrl: url, documentId: "doc-allowed-0001" });
    await (await spendingGuard()).decide("allowWorkbook");

    await resetSpendingGuard({ documentUrl: url, documentId: "doc-another-0002" });
    const cells = await Promise.all(rows(150).map(runCell));
    expect(cells.filter((cell) => cell.error === undefined).length).toBe(100);

    // The allowed document itself, reopened, is still allowed.
    await resetSpendingGuard({ documentUrl: url, documentId: "doc-allowed-0001" });
    expect(await currentDecision()).toBe("allowWorkbook");
  }, 60_000);

  it("should not let another user (another API key) inherit the allowing user's decision", async () => {
    await (await spendingGuard()).decide("allowWorkbook");
    expect(await currentDecision()).toBe("allowWorkbook");

    await saveSettings({ apiKey: "sk-colleague-key-0001" });
    expect(await currentDecision()).toBe("ask");

    await saveSettings({ apiKey: fixture.emulator.apiKey });
    expect(await currentDecision()).toBe("allowWorkbook");
  }, 60_000);

  it("should not use a slot of the threshold for a mistyped spell's cell (404: nothing started)", async () => {
    await saveSettings({ runsBeforeAsking: 5 });
    const invocation = Object.assign(cancelableInvocation(), { address: "Sheet1!A1" });
    const mistyped = await spellRun("nosuch-spell", [['{"i": 0}']], [["i"]], invocation).then(
      () => undefined,
      (error: { code: string; message: string }) => error
    );
    expect(mistyped?.message).toContain("404");

    const cells = await Promise.all(rows(5).map(runCell));

    expect(cells.filter((cell) => cell.error === undefined).length).toBe(5);
    expect(created().runs).toBe(5);
    expect((await guardState()).startedToday).toBe(5);
  }, 60_000);

  it("should still count a start whose connection dropped after sending (it may have started)", async () => {
    await saveSettings({ runsBeforeAsking: 5 });
    fixture.emulator.setFaults({
      dropRate: 1,
      dropPhase: "after",
      endpoints: ["start", "bulkStart"],
    });
    const dropped = await runCell(0);
    fixture.emulator.setFaults({});
    expect(dropped.error).toBeDefined();

    const cells = await Promise.all(rows(5, 1).map(runCell));

    expect(cells.filter((cell) => cell.error === undefined).length).toBe(4);
    expect((await guardState()).startedToday).toBe(5);
  }, 60_000);

  it("should give back the runs of a SPELL.BULK whose bulkStart was refused (unknown spell)", async () => {
    await saveSettings({ runsBeforeAsking: 5 });
    const invocation = Object.assign(streamingInvocation(), { address: "Sheet1!D1" });
    await streamBulk("nosuch-spell", [["i"], [1], [2], [3], [4]], [["i"]], invocation);
    expect((await guardState()).startedToday).toBe(0);

    const cell = await bulkCell(5);

    expect(cell.results.at(-1)).toEqual(echoSpill(5));
    expect((await guardState()).startedToday).toBe(5);
  }, 60_000);

  it("should give back only the refused chunk of a SPELL.BULK (the first chunk started, the second got a 413)", async () => {
    await saveSettings({ runsBeforeAsking: 1000 });
    // 500 small rows go out as the first chunk; the next 100 rows' bulkStart is over the limit.
    fixture.emulator.setFaults({ bodyLimitBytes: 20_000 });
    const table = [
      ["i"],
      ...rows(500).map((i) => [i]),
      ...rows(100).map((i) => ["x".repeat(300) + i]),
    ];
    const invocation = Object.assign(streamingInvocation(), { address: "Sheet1!D1" });

    await streamBulk("echo", table, [["i"]], invocation);

    expect(fixture.emulator.stats.bulkRunsCreated).toBe(500);
    expect((await guardState()).startedToday).toBe(500);
  }, 60_000);

  it("should keep the pane's runs out of the formulas' 10-minute count (the daily cap counts both)", async () => {
    await saveSettings({ dailyRunCap: 300 });
    const guard = await spendingGuard();
    await lastValueFrom(spendingGate({ by: "pane", runs: 100 }));

    const cells = await Promise.all(rows(150).map(runCell));
    expect(cells.filter((cell) => cell.error === undefined).length).toBe(100);
    expect(created().runs).toBe(100);
    await expectAsync(lastValueFrom(spendingGate({ by: "pane", runs: 101 }))).toBeRejectedWithError(
      /cap of 300/
    );
    expect(guard).toBe(await spendingGuard());
  }, 60_000);
  /** The guard's state as the pane sees it now. */
  const stateNow = async () => {
    const guard = await spendingGuard();
    return new Promise<SpendingGuardState>((resolve) =>
      guard.state$.subscribe(resolve).unsubscribe()
    );
  };

  it("should give the blocked cells back on 'Ask again': they ask again, and run once when allowed", async () => {
    await saveSettings({ runsBeforeAsking: 10 });
    await Promise.all(rows(23).map(runCell));
    const guard = await spendingGuard();
    const blocked = await recalculate(await guard.decide("block"));
    expect(blocked.length).toBe(13);
    for (const cell of blocked) expect(cell.error?.message).toMatch(/^Blocked/);

    // "Ask again": the blocked cells are recalculated and the pane asks about them.
    const askedAgain = await recalculate(await guard.decide("ask"));
    expect(askedAgain.map((cell) => cell.address).sort()).toEqual(
      blocked.map((cell) => cell.address).sort()
    );
    for (const cell of askedAgain) expect(cell.error?.message).toMatch(/^Waiting for your OK/);
    expect(await stateNow()).toEqual(
      jasmine.objectContaining({ decision: "ask", waitingRuns: 13, reason: "threshold" })
    );
    // The same formula typed again asks too (it does not stay blocked silently).
    expect((await runCell(22)).error?.message).toMatch(/^Waiting for your OK/);
    expect((await stateNow()).waitingRuns).toBe(13);

    const allowed = await recalculate(await guard.decide("allowWorkbook"));
    expect(allowed.length).toBe(13);
    for (const cell of allowed) expect(cell.value).toBe(Number(cell.address.slice(8)) - 2);
    expect(created()).toEqual({ runs: 23, maxPerInput: 1 });
  }, 60_000);

  // Cells of one input share one run (result reuse), whose gate is asked once: every one of
  // them must come back after the answers, not only the first.
  it("should give back every cell of one input after Block, Ask again and Allow these", async () => {
    await saveSettings({ runsBeforeAsking: 2 });
    await Promise.all(rows(2).map(runCell));
    /** `=SPELL.RUN("echo", {"i": 99}, "i")` in B(row+2): the same input in every cell. */
    const sameInput = (address: string): Promise<CellOutcome> =>
      spellRun(
        "echo",
        [[JSON.stringify({ i: 99 })]],
        [["i"]],
        Object.assign(cancelableInvocation(), { address })
      ).then(
        (value) => ({ address, value: value[0][0] }),
        (error: { code: string; message: string }) => ({ address, error })
      );
    const cells = rows(7, 10).map((row) => `Sheet1!B${row + 2}`);
    const waiting = await Promise.all(cells.map(sameInput));
    for (const cell of waiting) expect(cell.error?.message).toMatch(/^Waiting for your OK/);
    const guard = await spendingGuard();

    const blockedAt = await guard.decide("block");
    expect(blockedAt.sort()).toEqual([...cells].sort());
    for (const cell of await Promise.all(blockedAt.map(sameInput)))
      expect(cell.error?.message).toMatch(/^Blocked/);
    const askedAt = await guard.decide("ask");
    expect(askedAt.sort()).toEqual([...cells].sort());
    for (const cell of await Promise.all(askedAt.map(sameInput)))
      expect(cell.error?.message).toMatch(/^Waiting for your OK/);
    const allowedAt = await guard.decide("allowThese");
    expect(allowedAt.sort()).toEqual([...cells].sort());
    for (const cell of await Promise.all(allowedAt.map(sameInput))) expect(cell.value).toBe(99);
    expect(created()).toEqual({ runs: 3, maxPerInput: 1 });
  }, 60_000);

  it("should give the blocked cells back on 'Allow this workbook', and the cells blocked later too", async () => {
    await saveSettings({ runsBeforeAsking: 10 });
    await Promise.all(rows(15).map(runCell));
    const guard = await spendingGuard();
    await recalculate(await guard.decide("block"));
    // A cell typed while blocked is blocked, and kept with the others.
    expect((await runCell(40)).error?.message).toMatch(/^Blocked/);

    const allowed = await recalculate(await guard.decide("allowWorkbook"));
    expect(allowed.length).toBe(6);
    expect(allowed.every((cell) => cell.error === undefined)).toBeTrue();
    expect(created()).toEqual({ runs: 16, maxPerInput: 1 });
    // Given back once: a later answer recalculates nothing more.
    expect(await guard.decide("ask")).toEqual([]);
  }, 60_000);

  it("should say how many runs really started in the window, not the threshold", async () => {
    await saveSettings({ runsBeforeAsking: 10 });
    await Promise.all(rows(30).map(runCell));
    const guard = await spendingGuard();
    await recalculate(await guard.decide("allowThese"));
    expect(created().runs).toBe(30);

    const waiting = await runCell(30);
    expect(waiting.error?.message).toContain("started 30 runs in the last 10 minutes");
    expect(waiting.error?.message).toContain("starts 10 without asking");
    expect(await stateNow()).toEqual(
      jasmine.objectContaining({ startedInWindow: 30, waitingRuns: 1, reason: "threshold" })
    );
  }, 60_000);

  it("should judge the waiting cells again when the daily cap is raised: they run, none twice", async () => {
    await saveSettings({ runsBeforeAsking: 1000 });
    await Promise.all(rows(5).map(runCell));
    await saveSettings({ dailyRunCap: 8 });
    const first = await Promise.all(rows(10, 5).map(runCell));
    expect(first.filter((cell) => cell.error === undefined).length).toBe(3);
    expect(await stateNow()).toEqual(
      jasmine.objectContaining({ waitingRuns: 7, reason: "dailyCap" })
    );
    const guard = await spendingGuard();
    const rejudged: CellOutcome[][] = [];
    const recalculated: Promise<void>[] = [];
    const subscription = guard.rejudged$.subscribe((addresses) => {
      recalculated.push(recalculate(addresses).then((cells) => void rejudged.push(cells)));
    });
    try {
      await saveSettings({ dailyRunCap: 300 });
      await Promise.all(recalculated);
    } finally {
      subscription.unsubscribe();
    }

    expect(rejudged.length).toBe(1);
    expect(rejudged[0].length).toBe(7);
    expect(rejudged[0].every((cell) => cell.error === undefined)).toBeTrue();
    expect(await stateNow()).toEqual(
      jasmine.objectContaining({ waitingRuns: 0, reason: undefined, startedToday: 15 })
    );
    expect(created()).toEqual({ runs: 15, maxPerInput: 1 });
  }, 60_000);

  it("should ask the window's question when a raised daily cap leaves the threshold in the way", async () => {
    await saveSettings({ runsBeforeAsking: 12, dailyRunCap: 8 });
    await Promise.all(rows(15).map(runCell));
    expect(await stateNow()).toEqual(
      jasmine.objectContaining({ waitingRuns: 7, reason: "dailyCap" })
    );
    const guard = await spendingGuard();
    const recalculated: Promise<CellOutcome[]>[] = [];
    const subscription = guard.rejudged$.subscribe((addresses) => {
      recalculated.push(recalculate(addresses));
    });
    try {
      await saveSettings({ dailyRunCap: 300 });
    } finally {
      subscription.unsubscribe();
    }
    const [again] = await Promise.all(recalculated);

    expect(again.filter((cell) => cell.error === undefined).length).toBe(4);
    expect(await stateNow()).toEqual(
      jasmine.objectContaining({ waitingRuns: 3, reason: "threshold", startedInWindow: 12 })
    );
    expect(created()).toEqual({ runs: 12, maxPerInput: 1 });
  }, 60_000);
});

/** The open document's decision, as the guard now holds it. */
async function currentDecision(): Promise<string> {
  const guard = await spendingGuard();
  const state = await new Promise<{ decision: string }>((resolve) =>
    guard.state$.subscribe(resolve).unsubscribe()
  );
  return state.decision;
}

/** The guard's state now. */
async function guardState(): Promise<{ startedToday: number; waitingRuns: number }> {
  const guard = await spendingGuard();
  return new Promise((resolve) => guard.state$.subscribe(resolve).unsubscribe());
}
