import { spellBulk } from "../../functions/functions.js";
import { clearRememberedResults } from "../../addin/rememberedResults.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { memoryStorage, useKeyValueStorage } from "../../addin/keyValueStorage.js";
import type { KeyValueStorage } from "../../addin/keyValueStorage.js";
import { resetSharedClient } from "../../addin/sharedClient.js";
import { resetSpendingGuard } from "../../addin/spendingGuard.js";
import { UNGUARDED_SPENDING } from "../helpers/freshAddinState.js";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { eventually, sleep, streamingInvocation } from "./support/excelInvocations.js";
import fc from "fast-check";

/**
 * The storage of one page of the add-in over storage that outlives it (`OfficeRuntime.storage`):
 * once the page is reloaded, what its old store still writes goes nowhere.
 */
function pageStorage(backing: KeyValueStorage): { storage: KeyValueStorage; reload: () => void } {
  let gone = false;
  const unlessGone =
    <A extends unknown[]>(write: (...args: A) => Promise<void>) =>
    (...args: A) =>
      gone ? Promise.resolve() : write(...args);
  return {
    storage: {
      getItem: (key) => backing.getItem(key),
      setItem: unlessGone((key: string, value: string) => backing.setItem(key, value)),
      removeItem: unlessGone((key: string) => backing.removeItem(key)),
      setItems: unlessGone((items: Record<string, string>) => backing.setItems(items)),
      removeItems: unlessGone((keys: string[]) => backing.removeItems(keys)),
    },
    reload: () => (gone = true),
  };
}

/** Whether a spill is final: no cell still `#N/A` ("Still running"). */
function isFinal(result: unknown[][] | CustomFunctions.Error): boolean {
  return (
    Array.isArray(result) &&
    result.length > 1 &&
    result.every((row) =>
      row.every(
        (cell) =>
          !(
            cell &&
            typeof cell === "object" &&
            /Still running/.test(String((cell as Error).message))
          )
      )
    )
  );
}

describe("SPELL.BULK reloaded mid-run", () => {
  /** The emulator's clock: runs finish only when a spec moves it. */
  let now = 1_700_000_000_000;
  const fixture = useEmulator({ timeScale: 0.02, now: () => now });
  let backing: KeyValueStorage;
  let page: ReturnType<typeof pageStorage>;

  /** Runs the service started, single or in bulk groups. */
  const started = () => fixture.emulator.stats.runsCreated + fixture.emulator.stats.bulkRunsCreated;

  /** A reload of the add-in: a new page over the same storage, its client and store built anew. */
  async function reload(): Promise<void> {
    await resetSharedClient();
    page.reload();
    page = pageStorage(backing);
    useKeyValueStorage(page.storage);
  }

  /** Moves the emulator's clock on 100 s every 50 ms while `done` is pending. */
  async function whileTheClockMoves<T>(done: Promise<T>): Promise<T> {
    const ticking = setInterval(() => (now += 100_000), 50);
    try {
      return await done;
    } finally {
      clearInterval(ticking);
    }
  }

  beforeEach(async () => {
    backing = memoryStorage();
    page = pageStorage(backing);
    useKeyValueStorage(page.storage);
    await resetSharedClient();
    await clearRememberedResults();
    await saveSettings({
      apiKey: fixture.emulator.apiKey,
      baseUrl: fixture.emulator.baseUrl,
      pollBaseUrl: fixture.emulator.pollBaseUrl,
      ...UNGUARDED_SPENDING,
    });
    await resetSpendingGuard({ documentUrl: "https://contoso.example/bulk.xlsx" });
    fixture.emulator.resetStats();
  });

  afterAll(async () => {
    await resetSpendingGuard();
    await resetSharedClient();
    useKeyValueStorage(undefined);
  });

  /** `=SPELL.BULK("sleep", table, "slept")`: each row sleeps 100 s of the emulator's clock plus its number. */
  function table(rows: number[]): unknown[][] {
    return [["ms"], ...rows.map((row) => [100_000 + row])];
  }

  it("should follow the runs already going after a reload, start none again, and give every row its own result", async () => {
    const first = streamingInvocation();
    spellBulk("sleep", table([0, 1, 2, 3]), [["slept"]], first);
    await eventually(() => started() === 4, 10_000);
    await sleep(300); // the started runs' records written (the store flushes every 100 ms)

    // The page is reloaded mid-run: Excel calculates the formula again on the new page.
    await reload();
    const again = streamingInvocation();
    spellBulk("sleep", table([0, 1, 2, 3]), [["slept"]], again);
    const final = await whileTheClockMoves(again.resultWhere(isFinal, 20_000));
    expect(final).toEqual([["slept"], [100_000], [100_001], [100_002], [100_003]]);
    expect(started() - 4)
      .withContext("runs started again after the reload")
      .toBe(0);
  }, 30_000);

  // Known defect, left open: Excel cancels the first call as the edit comes, and its teardown
  // cancels the whole group at the service, so the rows the second call follows end "Cancelled"
  // (before followed rows existed, the second call sent every row again: 3 runs for 1 edit). The
  // fix is a grace before a bulk's cancel that a follower of its rows takes over, as SPELL.RUN's
  // batched rows have; this spec is the acceptance test for it.
  xit("should keep the other rows running when one input row is edited mid-run, starting only the edited row", async () => {
    const first = streamingInvocation();
    spellBulk("sleep", table([0, 1, 2]), [["slept"]], first);
    await eventually(() => started() === 3, 10_000);
    await sleep(300); // the started runs' records written (the store flushes every 100 ms)

    // An input row edited: Excel cancels the call and calls again with the new table.
    first.cancel();
    const again = streamingInvocation();
    spellBulk("sleep", table([0, 1, 5]), [["slept"]], again);
    const final = await whileTheClockMoves(again.resultWhere(isFinal, 20_000));
    expect(final).toEqual([["slept"], [100_000], [100_001], [100_005]]);
    expect(started() - 3)
      .withContext("runs started for the edit")
      .toBe(1);
  }, 30_000);

  it("should start only the changed row after a reload mid-run", async () => {
    const first = streamingInvocation();
    spellBulk("sleep", table([0, 1, 2]), [["slept"]], first);
    await eventually(() => started() === 3, 10_000);
    await sleep(300);

    await reload();
    const again = streamingInvocation();
    spellBulk("sleep", table([0, 7, 2]), [["slept"]], again);
    const final = await whileTheClockMoves(again.resultWhere(isFinal, 20_000));
    expect(final).toEqual([["slept"], [100_000], [100_007], [100_002]]);
    expect(started() - 3)
      .withContext("runs started after the reload")
      .toBe(1);
  }, 30_000);

  let paths = 0;

  it("should start each row's input at most once and give each row its own output, whatever the reloads (generated paths)", async () => {
    await fc.assert(
      fc.asyncProperty(
        // The rows of each calculation (the input of a row may change between reloads), and how
        // far the clock moves before each reload (some rows finished, others still running).
        fc.array(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 5 }), {
          minLength: 2,
          maxLength: 3,
        }),
        fc.array(fc.integer({ min: 0, max: 6_000 }), { minLength: 3, maxLength: 3 }),
        async (calculations, advances) => {
          // Each path its own inputs: nothing remembered from an earlier path answers them.
          const path = ++paths;
          await reload();
          fixture.emulator.resetStats();
          // Inputs sent so far: each may start once, however many pages asked for it.
          const inputs = new Set<number>();
          for (const [step, rows] of calculations.entries()) {
            if (step > 0) await reload();
            const invocation = streamingInvocation();
            const values = rows.map((row) => row * 1_000 + path);
            spellBulk("sleep", table(values), [["slept"]], invocation);
            values.forEach((value) => inputs.add(value));
            // The page's runs start and their records are written; then the clock moves: some
            // rows finish before the next reload.
            await sleep(300);
            now += advances[step];
            await sleep(100);
            const final = step === calculations.length - 1;
            if (final) {
              const shown = await whileTheClockMoves(invocation.resultWhere(isFinal, 10_000));
              expect(shown).toEqual([["slept"], ...values.map((value) => [100_000 + value])]);
            }
            if (started() > inputs.size) {
              throw new Error(
                `${started()} runs started for ${inputs.size} different inputs after step ${step}`
              );
            }
          }
        }
      ),
      { numRuns: 6 }
    );
  }, 120_000);
});
