import { lastValueFrom } from "rxjs";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import { SpellClient } from "../../src/index.js";

// Timers are never early, so "the run took at least N ms" holds on any machine; no upper bounds.
describe("SpellClient polling that knows its spell (emulator, real time)", () => {
  let emulator: RunningEmulator;

  function newClient(): SpellClient {
    const { baseUrl, pollBaseUrl, apiKey } = emulator;
    return new SpellClient({ baseUrl, pollBaseUrl, apiKey });
  }

  async function timedRun(
    client: SpellClient,
    ms: number,
    expectedDurationMs?: number
  ): Promise<{ elapsedMs: number; polls: number }> {
    const pollsBefore = emulator.stats.requests.getRun ?? 0;
    const started = performance.now();
    await lastValueFrom(client.run("sleep", { ms }, { wait: false, expectedDurationMs }));
    return {
      elapsedMs: performance.now() - started,
      polls: (emulator.stats.requests.getRun ?? 0) - pollsBefore,
    };
  }

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 1 });
  });
  afterAll(() => emulator.close());

  it("should poll an unknown spell on the fixed schedule (first poll at 250 ms)", async () => {
    const { elapsedMs, polls } = await timedRun(newClient(), 0);
    expect(polls).toBe(1);
    expect(elapsedMs).toBeGreaterThanOrEqual(240);
  });

  it("should wait for the caller's expected duration before polling (first poll at 42.5 % of it)", async () => {
    const { elapsedMs, polls } = await timedRun(newClient(), 0, 2000);
    expect(polls).toBe(1);
    expect(elapsedMs).toBeGreaterThanOrEqual(840);
  });

  it("should learn from a finished run of the spell when to poll the next one", async () => {
    const client = newClient();
    // Fixed schedule: polls at 250, 500, 1000 and 2000 ms; the run ends between the last two.
    await timedRun(client, 1200);
    // Learned ≈ 1.5 s: the first poll of the next run waits for half the expected window's start.
    const { elapsedMs, polls } = await timedRun(client, 0);
    expect(polls).toBe(1);
    expect(elapsedMs).toBeGreaterThanOrEqual(540);
  });
});
