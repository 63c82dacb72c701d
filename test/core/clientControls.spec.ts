import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import {
  SpellCallTimeoutError,
  SpellClient,
  SpellHttpError,
  type BulkRow,
  type BulkSnapshot,
  type RunSnapshot,
  type SpellClientOptions,
} from "../../src/index.js";
import { collect, pause, waitUntil } from "./support/collect.js";

/** Fast timing for the emulator at timeScale 0.02 (a 10 s spell lasts 200 ms). */
const fast: Partial<SpellClientOptions> = {
  poll: { initialDelayMs: 20, intervalMs: 20, growth: 1.5, maxIntervalMs: 100 },
  retry: { baseDelayMs: 10, maxDelayMs: 50 },
};

interface Echoed {
  readonly text: string;
  readonly n: number;
}

describe("SpellClient's per-call controls against the emulator", () => {
  let emulator: RunningEmulator;

  function newClient(options: Partial<SpellClientOptions> = {}): SpellClient {
    const { baseUrl, pollBaseUrl, apiKey } = emulator;
    return new SpellClient({ baseUrl, pollBaseUrl, apiKey, ...fast, ...options });
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

  it("should take an interface and a readonly list as inputs, and type the outputs of a typed handle", async () => {
    const echo = newClient().spell<Echoed, Echoed>("echo");
    const single: Echoed = { text: "hi", n: 1 };
    const { text } = await echo.runOutputs(single);
    expect(text.toUpperCase()).toBe("HI");
    const rows: readonly Echoed[] = [
      { text: "a", n: 0 },
      { text: "b", n: 1 },
    ];
    const entries = await echo.bulkOutputs(rows);
    expect(entries.map((entry) => (entry.state === "success" ? entry.outputs.n : -1))).toEqual([
      0, 1,
    ]);
    const typedRows: number[] = [];
    for await (const row of echo.bulkRows(rows)) {
      if (row.state === "success") typedRows.push(row.outputs.n);
    }
    expect(typedRows.sort()).toEqual([0, 1]);
    // @ts-expect-error a typed handle refuses inputs of another shape
    expect(() => echo.run({ other: true })).toBeDefined();
  });

  it("should tell onProgress of every snapshot of runOutputs and bulkOutputs", async () => {
    const client = newClient();
    const runSeen: RunSnapshot[] = [];
    await client.runOutputs("echo", { n: 1 }, { wait: false, onProgress: (s) => runSeen.push(s) });
    expect(runSeen.map((snapshot) => snapshot.state)).toEqual(["inProgress", "success"]);
    const bulkSeen: BulkSnapshot[] = [];
    const rows = await client.bulkOutputs("echo", [{ n: 1 }, { n: 2 }], {
      onProgress: (snapshot) => bulkSeen.push(snapshot),
    });
    expect(bulkSeen.length).toBeGreaterThanOrEqual(2);
    expect(bulkSeen[0].done).toBeFalse();
    expect(bulkSeen.at(-1)?.runs).toEqual(rows);
  });

  it("should yield each row of bulkRows once, as it finishes, with its index", async () => {
    const client = newClient({ bulkChunkSize: 4 });
    const inputs = Array.from({ length: 10 }, (_, n) => ({ n, ms: (10 - n) * 20 }));
    const seen: BulkRow[] = [];
    for await (const row of client.bulkRows("sleep", inputs)) seen.push(row);
    expect(seen.map((row) => row.index).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, n) => n)
    );
    expect(seen.every((row) => row.state === "success")).toBeTrue();
    expect(emulator.stats.requests.cancelBulk).toBe(0);
  });

  it("should cancel the unfinished groups once when a bulkRows loop is left early", async () => {
    const client = newClient();
    const inputs = [{ ms: 10 }, { ms: 100_000 }, { ms: 100_000 }];
    for await (const row of client.bulkRows("sleep", inputs)) {
      expect(row.index).toBe(0);
      break;
    }
    await waitUntil(() => emulator.stats.requests.cancelBulk >= 1);
    await pause(100);
    expect(emulator.stats.requests.cancelBulk).toBe(1);
  });

  it("should stop a bulk at its timeoutMs as an unsubscribe does (one cancel) with SpellCallTimeoutError", async () => {
    const client = newClient();
    const result = await collect(client.bulk("sleep", [{ ms: 100_000 }], { timeoutMs: 150 }));
    expect(result.error).toBeInstanceOf(SpellCallTimeoutError);
    expect((result.error as Error).message).toContain('bulk of "sleep"');
    await waitUntil(() => emulator.stats.requests.cancelBulk >= 1);
    expect(emulator.stats.requests.cancelBulk).toBe(1);
  });

  it("should stop a bulk when its signal aborts, cancelling its group, with the signal's reason", async () => {
    const client = newClient();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user left")), 100);
    const result = await collect(
      client.bulk("sleep", [{ ms: 100_000 }], { signal: controller.signal })
    );
    expect((result.error as Error).message).toBe("user left");
    await waitUntil(() => emulator.stats.requests.cancelBulk >= 1);
    expect(emulator.stats.requests.cancelBulk).toBe(1);
  });

  it("should use a call's own retry settings over the client's", async () => {
    const client = newClient({ retry: { limit: 5, baseDelayMs: 10, maxDelayMs: 20 } });
    emulator.setFaults({ rate503: 1, endpoints: ["start"] });
    const once = await collect(client.run("echo", { n: 1 }, { retry: { limit: 0 } }));
    expect(once.error).toBeInstanceOf(SpellHttpError);
    expect(emulator.stats.requests.start).toBe(1);
    emulator.resetStats();
    const patient = await collect(client.run("echo", { n: 1 }));
    expect(patient.error).toBeInstanceOf(SpellHttpError);
    expect(emulator.stats.requests.start).toBe(6);
  });

  it("should pause every request of the client after one 429 until its Retry-After has passed", async () => {
    const sentAt: { url: string; at: number }[] = [];
    const started = Date.now();
    const timing: typeof fetch = (input, init) => {
      sentAt.push({ url: String(input), at: Date.now() - started });
      return fetch(input, init);
    };
    let retries = 0;
    const client = newClient({
      fetch: timing,
      retry: { baseDelayMs: 10, maxRetryAfterMs: 5000 },
      // The client's own word that it got the 429 (the emulator counts it before it arrives).
      logger: (event) => {
        if (event.type === "retry") retries++;
      },
    });
    emulator.setFaults({ rate429: 1, retryAfterSeconds: 1, endpoints: ["start"] });
    const first = collect(client.run("echo", { n: 1 }, { wait: false }));
    await waitUntil(() => retries >= 1);
    const refusedAt = Date.now() - started;
    emulator.setFaults({});
    // Another call of the same client, to another endpoint, while the pause is on.
    const second = collect(client.bulk("echo", [{ n: 2 }]));
    expect((await first).completed).toBeTrue();
    expect((await second).completed).toBeTrue();
    const bulkStart = sentAt.find((request) => request.url.includes("bulkStart"));
    expect(bulkStart?.at).toBeGreaterThanOrEqual(refusedAt + 800);
  });
});
