import { startEmulator } from "../../emulator/startEmulator.js";
import type { RunningEmulator } from "../../emulator/startEmulator.js";
import { expectErrorShape, sleep, spellApi } from "./support/emulatorHttp.js";

describe("emulator bulk runs", () => {
  let emulator: RunningEmulator;
  let spell: ReturnType<typeof spellApi>;

  beforeAll(async () => {
    // echo: 200 ms × 0.1 = 20 ms per run, 4 at a time.
    emulator = await startEmulator({ timeScale: 0.1, bulkConcurrency: 4 });
    spell = spellApi(emulator);
  });
  afterAll(() => emulator.close());

  async function bulkStart(count: number, spellId = "echo"): Promise<string> {
    const inputs = Array.from({ length: count }, (_, index) => ({ index }));
    const result = await spell.bulkStart(spellId, inputs);
    expect(result.status).toBe(200);
    expect(Object.keys(result.body)).toEqual(["runId"]);
    return result.body.runId as string;
  }

  async function waitForBulk(
    groupId: string
  ): Promise<{ state: string; outputs: Record<string, unknown> }[]> {
    for (let poll = 0; poll < 300; poll++) {
      const { body } = await spell.getBulkRuns(groupId);
      if (body.runs?.every((run) => run.state !== "inProgress")) return body.runs;
      await sleep(10);
    }
    throw new Error("bulk did not finish");
  }

  it("should answer a group id at once and the runs in input order", async () => {
    const groupId = await bulkStart(10);
    expect(groupId).toMatch(/^bulk_\d+_[0-9a-f]+$/);
    const first = await spell.getBulkRuns(groupId);
    expect(first.status).toBe(200);
    expect(first.body.runs?.length).toBe(10);
    for (const run of first.body.runs ?? []) {
      expect(run.state === "inProgress" ? run.outputs : run.state).toEqual(
        run.state === "inProgress" ? {} : "success"
      );
    }
    const runs = await waitForBulk(groupId);
    expect(runs).toEqual(
      Array.from({ length: 10 }, (_, index) => ({ state: "success", outputs: { index } }))
    );
  });

  it("should finish runs progressively, not all at the same instant", async () => {
    // sleep 1000 ms × 0.1 = ~100 ms per run, 3 waves of 4: ~300 ms, polled every 10 ms.
    const started = await spell.bulkStart(
      "sleep",
      Array.from({ length: 12 }, () => ({ ms: 1_000 }))
    );
    const groupId = started.body.runId as string;
    const finishedCounts = new Set<number>();
    for (let poll = 0; poll < 300; poll++) {
      const { body } = await spell.getBulkRuns(groupId);
      const finished = body.runs?.filter((run) => run.state === "success").length ?? 0;
      finishedCounts.add(finished);
      if (finished === 12) break;
      await sleep(10);
    }
    expect(finishedCounts.has(12)).toBeTrue();
    expect(
      [...finishedCounts].filter((count) => count > 0 && count < 12).length
    ).toBeGreaterThanOrEqual(2);
  });

  it("should show failure and error runs per entry", async () => {
    const failed = await waitForBulk(await bulkStart(2, "always-fails"));
    expect(failed.map((run) => run.state)).toEqual(["failure", "failure"]);
    const errored = await waitForBulk(await bulkStart(2, "always-errors"));
    expect(errored.map((run) => run.state)).toEqual(["error", "error"]);
  });

  it("should cancel every unfinished run at once, keep finished ones, and be idempotent", async () => {
    const inputs = [{ ms: 0 }, ...Array.from({ length: 7 }, () => ({ ms: 100_000 }))];
    const started = await spell.bulkStart("sleep", inputs);
    const groupId = started.body.runId as string;
    await sleep(5);
    const cancelled = await spell.cancelBulk(groupId);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ groupId, cancelled: 7 });
    const { body } = await spell.getBulkRuns(groupId);
    expect(body.runs?.[0]).toEqual({ state: "success", outputs: { slept: 0 } });
    for (const run of body.runs?.slice(1) ?? []) {
      expect(run).toEqual({ state: "error", outputs: { error: "Cancelled" } });
    }
    const again = await spell.cancelBulk(groupId);
    expect(again.body).toEqual({ groupId, cancelled: 0 });
    expect((await spell.getBulkRuns(groupId)).body).toEqual(body);
    expect(emulator.stats.cancelledGroups).toBeGreaterThanOrEqual(1);
  });

  it("should accept an empty inputs array as an already finished group", async () => {
    const groupId = await bulkStart(0);
    expect((await spell.getBulkRuns(groupId)).body).toEqual({ runs: [] });
  });

  it("should answer 400 when inputs is not an array of objects, and 404 for an unknown spell", async () => {
    for (const inputs of [{ a: 1 }, "x", null, undefined, [{ a: 1 }, 2], [[]], [null]]) {
      expectErrorShape(await spell.bulkStart("echo", inputs), 400, "invalid_inputs");
    }
    expectErrorShape(await spell.bulkStart("no-such-spell", [{}]), 404, "spell_not_found");
  });

  it("should start and serve a 10,000-run bulk cheaply", async () => {
    const big = await startEmulator({ timeScale: 0.001 });
    try {
      const api = spellApi(big);
      // 600 ms per run, 50 at a time: the first runs end after ~480 ms, the group after ~2 min.
      const inputs = Array.from({ length: 10_000 }, (_, index) => ({ ms: 600_000 + index }));
      const started = await api.bulkStart("sleep", inputs);
      expect(started.status).toBe(200);
      const { body } = await api.getBulkRuns(started.body.runId as string);
      expect(body.runs?.length).toBe(10_000);
      expect(body.runs?.[9_999]).toEqual({ state: "inProgress", outputs: {} });
      expect(big.stats.bulkRunsCreated).toBe(10_000);
      const inFlight = big.stats.inFlight; // read later than the answer: at most one wave fewer
      expect(inFlight).toBeLessThanOrEqual(10_000);
      expect(inFlight).toBeGreaterThanOrEqual(10_000 - 50);
    } finally {
      await big.close();
    }
  });
});
