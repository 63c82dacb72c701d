import { emulatorForBrowser, emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import {
  SpellClient,
  SpellHttpError,
  SpellRunError,
  type SpellClientOptions,
} from "../../src/index.js";
import { collect, pause, totalRequests, waitUntil } from "./support/collect.js";

/** Fast timing for the Karma emulator (timeScale 0.05: a 10 s spell lasts 500 ms). */
const fast: Partial<SpellClientOptions> = {
  poll: { initialDelayMs: 30, intervalMs: 30, growth: 1.5, maxIntervalMs: 150 },
  retry: { baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 50 },
};

function newClient(options: Partial<SpellClientOptions> = {}): SpellClient {
  return new SpellClient({ ...emulatorForBrowser(), ...fast, ...options });
}

describe("SpellClient in the browser", () => {
  beforeEach(async () => {
    await resetEmulator();
  });

  it("should run a spell in wait mode with the browser's fetch", async () => {
    const result = await collect(
      newClient().run("summarize", { text: "one two three" }, { wait: true })
    );
    expect(result.values).toEqual([
      { state: "success", outputs: jasmine.objectContaining({ words: 3 }) },
    ]);
    expect((await emulatorStats()).requests.start).toBe(1);
  });

  it("should poll a run to success, with string and numeric run ids", async () => {
    const text = await collect(newClient().run("sleep", { ms: 2000 }, { wait: false }));
    expect(text.values.map((s) => s.state)).toEqual(["inProgress", "success"]);
    expect(typeof text.values[0].runId).toBe("string");

    await resetEmulator({ runIdType: "number" });
    const numeric = await collect(newClient().run("echo", { index: 4 }, { wait: false }));
    expect(typeof numeric.values[0].runId).toBe("number");
    expect(numeric.values[numeric.values.length - 1]).toEqual({
      runId: numeric.values[0].runId,
      state: "success",
      outputs: { index: 4 },
    });
  });

  it("should report failure as SpellRunError and 401 as SpellHttpError without the key", async () => {
    const failed = await collect(newClient().run("always-fails", {}, { wait: false }));
    expect((failed.error as SpellRunError).state).toBe("failure");
    const secret = "browser-secret-key";
    const unauthorized = await collect(
      newClient({ apiKey: secret }).run("echo", {}, { wait: true })
    );
    expect((unauthorized.error as SpellHttpError).status).toBe(401);
    expect((unauthorized.error as Error).message).not.toContain(secret);
    expect((await emulatorStats()).requests.start).toBe(2);
  });

  it("should map a bulk row by row across chunks", async () => {
    const inputs = Array.from({ length: 120 }, (_, index) => ({ index }));
    const result = await collect(newClient({ bulkChunkSize: 50 }).bulk("echo", inputs));
    const last = result.values[result.values.length - 1];
    expect(last.done).toBeTrue();
    expect(last.groupIds.length).toBe(3);
    expect(last.runs.map((run) => run.outputs.index)).toEqual(inputs.map((row) => row.index));
  });

  it("should send exactly one cancelBulk on unsubscribe, then nothing", async () => {
    const subscription = newClient()
      .bulk(
        "sleep",
        Array.from({ length: 10 }, () => ({ ms: 100_000 }))
      )
      .subscribe();
    for (let i = 0; i < 100 && (await emulatorStats()).requests.getBulkRuns < 2; i++)
      await pause(20);
    subscription.unsubscribe();
    await waitUntil(async () => (await emulatorStats()).cancelledGroups >= 1, "the cancel");
    await pause(300); // room for a second cancelBulk, had one been sent
    const stats = await emulatorStats();
    expect(stats.requests.cancelBulk).toBe(1);
    expect(stats.cancelledGroups).toBe(1);
    await pause(400);
    expect(totalRequests(await emulatorStats())).toBe(totalRequests(stats));
  });
});
