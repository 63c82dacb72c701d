import { lastValueFrom, of, throwError } from "rxjs";
import { MemoryResultStore, SpellClient } from "../../src/index.js";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";

describe("SpellClient.bulk with beforeStart", () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.resetStats());

  function client(): SpellClient {
    const { baseUrl, pollBaseUrl, apiKey } = emulator;
    return new SpellClient({
      baseUrl,
      pollBaseUrl,
      apiKey,
      reuse: { store: new MemoryResultStore() },
      poll: { initialDelayMs: 20, intervalMs: 20, growth: 1, maxIntervalMs: 20 },
    });
  }

  it("should fail with the gate's error and send nothing", async () => {
    const refused = new Error("waiting for the user");
    const bulk = client().bulk("echo", [{ i: 1 }, { i: 2 }], {
      beforeStart: () => throwError(() => refused),
    });

    await expectAsync(lastValueFrom(bulk)).toBeRejectedWith(refused);
    expect(emulator.stats.requests.bulkStart).toBe(0);
  });

  it("should ask the gate with the runs really sent: remembered rows and repeats left out", async () => {
    const spell = client();
    const asked: number[] = [];
    const beforeStart = (runs: number) => {
      asked.push(runs);
      return of(true);
    };
    await lastValueFrom(spell.bulk("echo", [{ i: 1 }, { i: 2 }], { reuse: true, beforeStart }));
    const rows = [{ i: 1 }, { i: 2 }, { i: 3 }, { i: 3 }, { i: 4 }];
    const done = await lastValueFrom(spell.bulk("echo", rows, { reuse: true, beforeStart }));
    // Everything remembered: nothing to send, nothing asked.
    await lastValueFrom(spell.bulk("echo", rows, { reuse: true, beforeStart }));

    expect(asked).toEqual([2, 2]);
    expect(done.runs.map((run) => run.outputs)).toEqual(rows);
    expect(emulator.stats.requests.bulkStart).toBe(2);
  });
});
