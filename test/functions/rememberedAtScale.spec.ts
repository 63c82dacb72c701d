import { spellRun } from "../../functions/functions.js";
import { clearRememberedResults } from "../../addin/rememberedResults.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { memoryStorage, useKeyValueStorage } from "../../addin/keyValueStorage.js";
import type { KeyValueStorage } from "../../addin/keyValueStorage.js";
import { resetSharedClient } from "../../addin/sharedClient.js";
import { resetSpendingGuard } from "../../addin/spendingGuard.js";
import { UNGUARDED_SPENDING } from "../helpers/freshAddinState.js";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cancelableInvocation, eventually, sleep } from "./support/excelInvocations.js";

/** Cells of a column filled down: `=SPELL.RUN(spell, {"n": row}, output)`, one input per row. */
const ROWS = 10_000;

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

/** Every cell of the column calculated at once, as Excel hands them over; their shown values. */
function calculateColumn(spellId: string, input: (row: number) => object, output: string) {
  return Promise.all(
    Array.from({ length: ROWS }, (_, row) =>
      spellRun(spellId, [[JSON.stringify(input(row))]], [[output]], cancelableInvocation()).then(
        (shown) => shown[0][0],
        (error: { message: string }) => `error: ${error.message}`
      )
    )
  );
}

describe(`SPELL.RUN filled down ${ROWS.toLocaleString("en-US")} rows, recalculated and reloaded`, () => {
  /** The emulator's clock: runs finish only when a spec moves it. */
  let now = 1_700_000_000_000;
  const fixture = useEmulator({ timeScale: 0.02, now: () => now, bulkConcurrency: 1000 });
  let backing: KeyValueStorage;
  let page: ReturnType<typeof pageStorage>;

  const started = () => fixture.emulator.stats.runsCreated + fixture.emulator.stats.bulkRunsCreated;

  /** A reload of the add-in: a new page over the same storage, its client and store built anew. */
  async function reload(): Promise<void> {
    await resetSharedClient();
    page.reload();
    page = pageStorage(backing);
    useKeyValueStorage(page.storage);
  }

  /** Waits for `done` while the emulator's clock moves on 100 s every 50 ms (runs started late end too). */
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
      // Every bulk run of the column in flight at once (20 of 500 cells).
      maxInFlight: 64,
      ...UNGUARDED_SPENDING,
    });
    await resetSpendingGuard({ documentUrl: "https://contoso.example/column.xlsx" });
    fixture.emulator.resetStats();
  });

  afterAll(async () => {
    await resetSpendingGuard();
    await resetSharedClient();
    useKeyValueStorage(undefined);
  });

  it("should watch the runs in flight after a reload mid-fill, then start no run on a full recalculation nor after another reload", async () => {
    // Each run lasts 100 s of the emulator's clock, which stands still until the spec moves it.
    const input = (row: number) => ({ ms: 100_000 + row });
    const column = Array.from({ length: ROWS }, (_, row) => 100_000 + row);
    void calculateColumn("sleep", input, "slept");
    await eventually(() => started() === ROWS, 30_000);
    await sleep(250); // the started runs' records written (the store flushes every 100 ms)

    // Excel reloads the add-in mid-fill: the reopened cells watch the runs in flight.
    await reload();
    const reopened = calculateColumn("sleep", input, "slept");
    await sleep(300);
    expect(await whileTheClockMoves(reopened)).toEqual(column);
    expect(started() - ROWS)
      .withContext("runs started again after a reload mid-fill")
      .toBe(0);
    await sleep(250); // the store's writes of the successes

    // Ctrl+Alt+F9: every cell calculated again.
    expect(await whileTheClockMoves(calculateColumn("sleep", input, "slept"))).toEqual(column);
    expect(started() - ROWS)
      .withContext("runs started by the full recalculation")
      .toBe(0);

    // The workbook reopened once the column was filled: a new page, its store read from storage.
    await reload();
    expect(await whileTheClockMoves(calculateColumn("sleep", input, "slept"))).toEqual(column);
    expect(started() - ROWS)
      .withContext("runs started after reopening the filled workbook")
      .toBe(0);
  }, 90_000);
});
