import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import { SpellClient, SpellRunError, type SpellClientOptions } from "../../src/index.js";
import { collect, pause, waitUntil } from "./support/collect.js";

/** Fast timing for the emulator at timeScale 0.02 (a 10 s spell lasts 200 ms). */
const fast: Partial<SpellClientOptions> = {
  poll: { initialDelayMs: 20, intervalMs: 20, growth: 1.5, maxIntervalMs: 100 },
  retry: { baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 50 },
};

describe("SpellClient with batch against the emulator", () => {
  let emulator: RunningEmulator;

  function newClient(options: Partial<SpellClientOptions> = {}): SpellClient {
    const { baseUrl, pollBaseUrl, apiKey } = emulator;
    return new SpellClient({ baseUrl, pollBaseUrl, apiKey, ...fast, batch: true, ...options });
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

  it("should send N polling-mode calls as one bulkStart per chunk, each caller its own outputs", async () => {
    const client = newClient({ bulkChunkSize: 20 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) => collect(client.run("echo", { n }, { wait: false })))
    );
    expect(results.map((result) => result.completed)).toEqual(new Array<boolean>(50).fill(true));
    expect(results.map((result) => result.values.at(-1)?.outputs)).toEqual(
      Array.from({ length: 50 }, (_, n) => ({ n }))
    );
    expect(results[0].values.map((snapshot) => snapshot.state)).toEqual(["inProgress", "success"]);
    expect(emulator.stats.requests.bulkStart).toBe(3);
    expect(emulator.stats.requests.start).toBe(0);
    expect(emulator.stats.bulkRunsCreated).toBe(50);
  });

  it("should keep each caller's error its own", async () => {
    const client = newClient();
    const [ok, failed] = await Promise.all([
      collect(client.run("echo", { n: 1 }, { wait: false })),
      collect(client.run("echo", { n: 2 }, { wait: false })),
      collect(client.run("always-fails", {}, { wait: false })),
    ]).then(([a, , c]) => [a, c]);
    expect(ok.values.at(-1)?.outputs).toEqual({ n: 1 });
    expect(failed.error).toBeInstanceOf(SpellRunError);
    expect(emulator.stats.requests.bulkStart).toBe(2);
  });

  it("should share one run between identical calls in a batch (reuse on) and answer remembered ones with no request", async () => {
    const client = newClient({ reuse: {} });
    const calls = [1, 2, 1, 3, 2, 1].map((n) =>
      collect(client.run("echo", { n }, { wait: false }))
    );
    const results = await Promise.all(calls);
    expect(results.map((result) => result.values.at(-1)?.outputs.n)).toEqual([1, 2, 1, 3, 2, 1]);
    expect(emulator.stats.requests.bulkStart).toBe(1);
    expect(emulator.stats.bulkRunsCreated).toBe(3);
    emulator.resetStats();
    const again = await collect(client.run("echo", { n: 2 }, { wait: false }));
    expect(again.values).toEqual([{ state: "success", outputs: { n: 2 } }]);
    expect(emulator.stats.requests.bulkStart).toBe(0);
    expect(emulator.stats.requests.getBulkRuns).toBe(0);
  });

  it("should leave the others running when one caller leaves, and cancel once when all have left", async () => {
    const client = newClient();
    const first = client.run("sleep", { ms: 100_000 }, { wait: false }).subscribe();
    const second = client.run("sleep", { ms: 100_001 }, { wait: false }).subscribe();
    const third = collect(client.run("sleep", { ms: 20 }, { wait: false }));
    // The three went out as one bulk: one caller leaves once the group exists.
    await waitUntil(() => emulator.stats.bulkGroupsCreated === 1, "the bulk's group");
    first.unsubscribe();
    expect((await third).values.at(-1)?.state).toBe("success");
    expect(emulator.stats.requests.cancelBulk).toBe(0);
    second.unsubscribe();
    await waitUntil(() => emulator.stats.requests.cancelBulk >= 1, "the cancelBulk");
    await pause(100); // room for a second cancelBulk, had one been sent
    expect(emulator.stats.requests.bulkStart).toBe(1);
    expect(emulator.stats.requests.cancelBulk).toBe(1);
    expect(emulator.stats.cancelledGroups).toBe(1);
  });

  it("should not batch wait-mode runs", async () => {
    const client = newClient();
    const result = await collect(client.run("echo", { n: 1 }, { wait: true }));
    expect(result.values).toEqual([{ state: "success", outputs: { n: 1 } }]);
    expect(emulator.stats.requests.start).toBe(1);
    expect(emulator.stats.requests.bulkStart).toBe(0);
  });

  describe("bulk with { reuse: true }", () => {
    it("should send identical rows once, answer remembered rows from the store, and remember successes", async () => {
      const client = newClient({ reuse: {} });
      const first = await client.bulkOutputs("echo", [{ n: 1 }, { n: 2 }, { n: 1 }], {});
      expect(first.map((row) => row.outputs)).toEqual([{ n: 1 }, { n: 2 }, { n: 1 }]);
      expect(emulator.stats.bulkRunsCreated).toBe(3); // off by default: every row sent

      emulator.resetStats();
      const snapshots = await collect(
        client.bulk("echo", [{ n: 3 }, { n: 4 }, { n: 3 }, { n: 4 }], { reuse: true })
      );
      const last = snapshots.values.at(-1);
      expect(last?.runs.map((row) => row.outputs)).toEqual([
        { n: 3 },
        { n: 4 },
        { n: 3 },
        { n: 4 },
      ]);
      expect(last?.total).toBe(4);
      expect(last?.counts.success).toBe(4);
      expect(emulator.stats.bulkRunsCreated).toBe(2);

      // Remembered by the bulk, answered to run and bulk alike with no request.
      emulator.resetStats();
      const again = await collect(client.bulk("echo", [{ n: 4 }, { n: 3 }], { reuse: true }));
      expect(again.values.length).toBe(1);
      expect(again.values[0].done).toBeTrue();
      expect(again.values[0].runs.map((row) => row.outputs)).toEqual([{ n: 4 }, { n: 3 }]);
      expect((await collect(client.run("echo", { n: 3 }, { wait: false }))).values).toEqual([
        { state: "success", outputs: { n: 3 } },
      ]);
      expect(emulator.stats.requests.bulkStart).toBe(0);
      expect(emulator.stats.requests.start).toBe(0);

      // A mix: only the row not remembered is sent, the others are success from the first snapshot.
      const mixed = await collect(client.bulk("echo", [{ n: 3 }, { n: 5 }], { reuse: true }));
      expect(mixed.values[0].runs[0].state).toBe("success");
      expect(mixed.values.at(-1)?.runs.map((row) => row.outputs)).toEqual([{ n: 3 }, { n: 5 }]);
      expect(emulator.stats.bulkRunsCreated).toBe(1);
    });

    it("should give a token that maps rows to the runs sent, which resumeBulk spreads again", async () => {
      const client = newClient({ reuse: {} });
      await collect(client.bulk("echo", [{ n: 7 }], { reuse: true }));
      emulator.resetStats();
      const rows = [{ n: 8 }, { n: 7 }, { n: 8 }, { n: 9 }];
      const last = (await collect(client.bulk("echo", rows, { reuse: true }))).values.at(-1)!;
      expect(emulator.stats.bulkRunsCreated).toBe(2);
      // Row 1 was remembered (-1); rows 0 and 2 share the first run sent.
      expect(last.resume.rows).toEqual([0, -1, 0, 1]);
      expect(last.resume.chunkSizes).toEqual([2]);

      // From a fresh client (a reload): the runs sent go back to their rows; nothing is started.
      emulator.resetStats();
      const resumed = (
        await collect(newClient().resumeBulk(JSON.parse(JSON.stringify(last.resume)), 4))
      ).values.at(-1)!;
      expect(resumed.runs.map((run) => run.outputs)).toEqual([
        { n: 8 },
        jasmine.objectContaining({ error: jasmine.stringMatching(/remembered results/) }),
        { n: 8 },
        { n: 9 },
      ]);
      expect(resumed.runs[1].state).toBe("error");
      expect(resumed.total).toBe(4);
      expect(resumed.counts).toEqual(
        jasmine.objectContaining({ success: 3, error: 1, inProgress: 0, pending: 0 })
      );
      expect(emulator.stats.requests.bulkStart).toBe(0);

      // Every row sent as its own run: no map in the token.
      const plain = (
        await collect(client.bulk("echo", [{ n: 10 }, { n: 11 }], { reuse: true }))
      ).values.at(-1)!;
      expect(plain.resume.rows).toBeUndefined();
    });
  });
});
