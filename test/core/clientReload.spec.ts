import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import {
  MemoryResultStore,
  SpellClient,
  type ResultStore,
  type SpellClientOptions,
} from "../../src/index.js";
import { collect, pause, waitUntil } from "./support/collect.js";

/** Fast timing for the emulator at timeScale 0.02 (a 10 s spell lasts 200 ms). */
const fast: Partial<SpellClientOptions> = {
  poll: { initialDelayMs: 20, intervalMs: 20, growth: 1.5, maxIntervalMs: 100 },
  retry: { baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 50 },
};

const INPUTS = [1, 2, 3, 4, 5].map((n) => ({ ms: 15_000 + n }));

describe("SpellClient with reuse across a reload, against the emulator", () => {
  let emulator: RunningEmulator;

  /**
   * The store and the network as a page sees them: after its reload, what it still does goes
   * nowhere (its requests never reach the service, as a closed page's do not; so a cancel the
   * spec's cleanup makes it send cannot land in the next spec's counts).
   */
  function page(store: ResultStore): {
    store: ResultStore;
    fetch: typeof fetch;
    reload: () => void;
  } {
    let gone = false;
    return {
      store: {
        get: (key) => store.get(key),
        set: (key, outputs, ttlMs) => (gone ? undefined : store.set(key, outputs, ttlMs)),
        delete: (key) => (gone ? undefined : store.delete?.(key)),
      },
      fetch: (input, init) =>
        gone
          ? new Promise<Response>((_resolve, reject) =>
              init?.signal?.addEventListener("abort", () =>
                reject(new DOMException("The page is gone", "AbortError"))
              )
            )
          : fetch(input, init),
      reload: () => (gone = true),
    };
  }

  function newClient(store: ResultStore, batch: boolean, fetchFn = fetch): SpellClient {
    const { baseUrl, pollBaseUrl, apiKey } = emulator;
    return new SpellClient({
      baseUrl,
      pollBaseUrl,
      apiKey,
      ...fast,
      batch,
      reuse: { store },
      fetch: fetchFn,
    });
  }

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
  });

  afterAll(async () => {
    await emulator.close();
  });

  beforeEach(() => {
    emulator.setFaults({});
    emulator.resetStats();
  });

  for (const batch of [true, false]) {
    it(`should watch the runs started before a reload instead of starting them again (${batch ? "batched" : "single"} runs)`, async () => {
      // The store outlives the page (as the add-in's storage does); the service keeps its runs.
      const store = new MemoryResultStore();
      const old = page(store);
      const before = newClient(old.store, batch, old.fetch);
      const running = INPUTS.map((inputs) =>
        before.run("sleep", inputs, { wait: false }).subscribe()
      );
      const started = () => emulator.stats.runsCreated + emulator.stats.bulkRunsCreated;
      await waitUntil(() => started() === INPUTS.length, "the runs started");
      await pause(20);
      // The reload, runs still going: the old page's work ends (no cancel is sent); a new client
      // over the same store calculates the same cells again.
      old.reload();
      expect(store.size).toBe(INPUTS.length);
      const after = newClient(store, batch);
      const results = await Promise.all(
        INPUTS.map((inputs) => collect(after.run("sleep", inputs, { wait: false })))
      );
      expect(results.map((result) => result.completed)).toEqual(
        new Array<boolean>(INPUTS.length).fill(true)
      );
      expect(started()).toBe(INPUTS.length);
      expect(emulator.stats.requests.cancelBulk ?? 0).toBe(0);
      // Every success stored, every started run forgotten.
      await waitUntil(() => store.size === INPUTS.length);
      for (const inputs of INPUTS) {
        expect(store.get(after.reuseKey("sleep", inputs))).toBeDefined();
      }
      for (const subscription of running) subscription.unsubscribe();
    });
  }
});
