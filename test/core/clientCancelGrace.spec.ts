import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import { SpellClient, type SpellClientOptions } from "../../src/index.js";
import { take } from "rxjs";
import { collect, pause, waitUntil } from "./support/collect.js";

/** Fast timing for the emulator at timeScale 0.02 (a 10 s spell lasts 200 ms). */
const fast: Partial<SpellClientOptions> = {
  poll: { initialDelayMs: 20, intervalMs: 20, growth: 1.5, maxIntervalMs: 100 },
  retry: { baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 50 },
};

const INPUTS = Array.from({ length: 10 }, (_, n) => ({ ms: 15_000 + n }));

describe("SpellClient with reuse's cancelGraceMs, against the emulator", () => {
  let emulator: RunningEmulator;

  function newClient(batch: boolean, cancelGraceMs: number): SpellClient {
    const { baseUrl, pollBaseUrl, apiKey } = emulator;
    return new SpellClient({
      baseUrl,
      pollBaseUrl,
      apiKey,
      ...fast,
      batch,
      reuse: { cancelGraceMs },
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

  const started = () => emulator.stats.runsCreated + emulator.stats.bulkRunsCreated;

  for (const batch of [true, false]) {
    it(`should let 10 calls cancelled and made again (Undo then Redo) watch their runs: 10 runs, not 20 (${batch ? "batched" : "single"} runs)`, async () => {
      const client = newClient(batch, 10_000);
      const first = INPUTS.map((inputs) =>
        client.run("sleep", inputs, { wait: false }).subscribe()
      );
      await waitUntil(() => started() === INPUTS.length, "the runs started");
      await pause(30);
      // Undo: Excel cancels every call; Redo a moment later makes them again.
      for (const subscription of first) subscription.unsubscribe();
      await pause(30);
      const results = await Promise.all(
        INPUTS.map((inputs) => collect(client.run("sleep", inputs, { wait: false })))
      );
      expect(results.every((result) => result.completed)).toBeTrue();
      expect(started()).toBe(INPUTS.length);
      expect(emulator.stats.requests.cancelBulk ?? 0).toBe(0);
    });
  }

  it("should send anew a batched run cancelled after its grace when its caller comes back (no cancelled error)", async () => {
    const client = newClient(true, 200);
    const call = client.run("sleep", { ms: 100_000 }, { wait: false }).subscribe();
    await waitUntil(() => started() === 1, "the run started");
    await pause(30);
    call.unsubscribe();
    await waitUntil(() => (emulator.stats.requests.cancelBulk ?? 0) === 1, "the cancelBulk");
    const back = await collect(client.run("sleep", { ms: 1_000 }, { wait: false }));
    const again = await collect(
      client.run("sleep", { ms: 100_000 }, { wait: false }).pipe(take(1))
    );
    expect(back.completed).toBeTrue();
    expect(again.error).toBeUndefined();
    expect(again.values[0]?.state).toBe("inProgress");
    expect(emulator.stats.requests.bulkStart).toBe(3);
    // Let go of as well once its grace passed (nothing left for the next spec).
    await waitUntil(() => (emulator.stats.requests.cancelBulk ?? 0) === 2, "the second cancelBulk");
  });

  it("should cancel a batched run at once when the grace is 0, as before", async () => {
    const client = newClient(true, 0);
    const call = client.run("sleep", { ms: 100_000 }, { wait: false }).subscribe();
    await waitUntil(() => started() === 1, "the run started");
    await pause(30);
    call.unsubscribe();
    await waitUntil(() => (emulator.stats.requests.cancelBulk ?? 0) === 1, "the cancelBulk");
  });
});
