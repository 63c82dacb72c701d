import { startEmulator } from "../../emulator/startEmulator.js";
import type { RunningEmulator } from "../../emulator/startEmulator.js";
import {
  expectErrorShape,
  httpRequest,
  pollUntilFinished,
  sleep,
  spellApi,
} from "./support/emulatorHttp.js";

describe("emulator fault injection", () => {
  let emulator: RunningEmulator;
  let spell: ReturnType<typeof spellApi>;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
    spell = spellApi(emulator);
  });
  afterAll(() => emulator.close());
  beforeEach(() => {
    emulator.setFaults({});
    emulator.resetStats();
  });

  it("should inject no faults by default", async () => {
    for (let call = 0; call < 20; call++) {
      expect((await spell.start("echo", { call }, false)).status).toBe(200);
    }
    expect(emulator.stats.faults).toEqual({});
  });

  it("should answer 429 with Retry-After and start nothing", async () => {
    emulator.setFaults({ rate429: 1, retryAfterSeconds: 7 });
    const result = await spell.post(
      "/spells/start",
      { spellId: "echo", inputs: {} },
      {
        ...spell.auth,
        origin: "http://localhost:9876",
      }
    );
    expectErrorShape(result, 429, "rate_limited");
    expect(result.headers["retry-after"]).toBe("7");
    expect(result.headers["access-control-expose-headers"]?.toLowerCase()).toContain("retry-after");
    expectErrorShape(await spell.bulkStart("echo", [{}]), 429, "rate_limited");
    expect(emulator.stats.runsCreated).toBe(0);
    expect(emulator.stats.bulkGroupsCreated).toBe(0);
    expect(emulator.stats.requests.start).toBe(1);
    expect(emulator.stats.faults["429"]).toBe(2);
  });

  it("should answer 503 and start nothing", async () => {
    emulator.setFaults({ rate503: 1 });
    expectErrorShape(await spell.start("echo", {}, true), 503, "unavailable");
    expect(emulator.stats.runsCreated).toBe(0);
    expect(emulator.stats.faults["503"]).toBe(1);
  });

  it("should answer 500 on reads only", async () => {
    const started = await spell.start("echo", { a: 1 }, false);
    const group = await spell.bulkStart("echo", [{}]);
    emulator.setFaults({ rate500OnReads: 1 });
    expectErrorShape(await spell.getRun(started.body.runId as string), 500, "internal_error");
    expectErrorShape(await spell.getBulkRuns(group.body.runId as string), 500, "internal_error");
    expect((await spell.start("echo", { a: 2 }, false)).status).toBe(200);
    expect((await spell.cancelBulk(group.body.runId as string)).status).toBe(200);
    expect(emulator.stats.faults["500"]).toBe(2);
  });

  it("should add latency, only on the chosen endpoints", async () => {
    emulator.setFaults({ latencyMs: 300, endpoints: ["getRun"] });
    const started = await spell.start("echo", {}, false);
    let began = Date.now();
    await spell.start("echo", {}, false);
    expect(Date.now() - began).toBeLessThan(250);
    began = Date.now();
    await spell.getRun(started.body.runId as string);
    expect(Date.now() - began).toBeGreaterThanOrEqual(295);
    expect(emulator.stats.faults.latency).toBe(1);
  });

  it("should drop a start's connection after creating the run by default", async () => {
    emulator.setFaults({ dropRate: 1 });
    await expectAsync(spell.start("echo", { dropped: 1 }, false)).toBeRejected();
    expect(emulator.stats.runsCreated).toBe(1);
    expect(emulator.stats.createdByKey['["echo",{"dropped":1}]']).toBe(1);
    expect(emulator.stats.requests.start).toBe(1);
    expect(emulator.stats.faults.drop).toBe(1);
  });

  it("should drop a start's connection before creating the run with dropPhase before", async () => {
    emulator.setFaults({ dropRate: 1, dropPhase: "before" });
    await expectAsync(spell.start("echo", { dropped: 2 }, true)).toBeRejected();
    await expectAsync(spell.bulkStart("echo", [{}])).toBeRejected();
    expect(emulator.stats.runsCreated).toBe(0);
    expect(emulator.stats.bulkGroupsCreated).toBe(0);
  });

  it("should drop reads and cancel the group before dropping cancelBulk's answer", async () => {
    const started = await spell.start("echo", {}, false);
    const group = await spell.bulkStart("sleep", [{ ms: 100_000 }]);
    emulator.setFaults({ dropRate: 1 });
    await expectAsync(spell.getRun(started.body.runId as string)).toBeRejected();
    await expectAsync(spell.cancelBulk(group.body.runId as string)).toBeRejected();
    emulator.setFaults({});
    const runs = await spell.getBulkRuns(group.body.runId as string);
    expect(runs.body.runs).toEqual([{ state: "error", outputs: { error: "Cancelled" } }]);
  });

  it("should draw faults from a seeded PRNG: same seed, same faults", async () => {
    const statuses = async (): Promise<number[]> => {
      emulator.setFaults({ rate503: 0.5, seed: 42 });
      const seen: number[] = [];
      for (let call = 0; call < 16; call++)
        seen.push((await spell.start("echo", {}, false)).status);
      return seen;
    };
    const first = await statuses();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await statuses()).toEqual(first);
  });

  it("should give numeric single run ids with runIdType number", async () => {
    emulator.setFaults({ runIdType: "number" });
    const first = await spell.start("echo", {}, false);
    const second = await spell.start("echo", {}, false);
    expect(typeof first.body.runId).toBe("number");
    expect(second.body.runId).toBe((first.body.runId as number) + 1);
    expect((await pollUntilFinished(spell, first.body.runId as number)).body.state).toBe("success");
    const group = await spell.bulkStart("echo", [{}]);
    expect(typeof group.body.runId).toBe("string");
  });

  it("should make bulk runs appear progressively with lazyBulk", async () => {
    emulator.setFaults({ lazyBulk: { groupVisibleAfterMs: 80, runsPerPoll: 3 } });
    const started = await spell.bulkStart(
      "echo",
      Array.from({ length: 7 }, (_, index) => ({ index }))
    );
    const groupId = started.body.runId as string;
    expectErrorShape(await spell.getBulkRuns(groupId), 404, "group_not_found");
    await sleep(100);
    const lengths: number[] = [];
    for (let poll = 0; poll < 4; poll++) {
      const { body } = await spell.getBulkRuns(groupId);
      lengths.push(body.runs?.length ?? -1);
      body.runs?.forEach((run, index) => {
        if (run.state === "success") expect(run.outputs).toEqual({ index });
      });
    }
    expect(lengths).toEqual([3, 6, 7, 7]);
  });

  it("should use defaults for lazyBulk: true and still allow cancelBulk while invisible", async () => {
    emulator.setFaults({ lazyBulk: true });
    const started = await spell.bulkStart(
      "sleep",
      Array.from({ length: 8 }, () => ({ ms: 100_000 }))
    );
    const groupId = started.body.runId as string;
    expectErrorShape(await spell.getBulkRuns(groupId), 404, "group_not_found");
    expect((await spell.cancelBulk(groupId)).body).toEqual({ groupId, cancelled: 8 });
    await sleep(320);
    expect((await spell.getBulkRuns(groupId)).body.runs?.length).toBe(2); // ceil(8 / 4)
  });

  it("should add unknown fields to every body with extraFields, except the control API", async () => {
    emulator.setFaults({ extraFields: true });
    const started = await spell.start("echo", { a: 1 }, false);
    expect(started.body.runId).toBeDefined();
    expect(Object.keys(started.body).length).toBeGreaterThan(1);
    const waited = await spell.start("echo", { a: 1 }, true);
    expect(waited.body.outputs).toEqual({ a: 1 });
    expect(waited.body.apiVersion).toBeDefined();
    const polled = await spell.getRun(started.body.runId as string);
    expect(polled.body._emulator).toBeDefined();
    const group = await spell.bulkStart("echo", [{ b: 1 }]);
    const runs = await spell.getBulkRuns(group.body.runId as string);
    expect(Object.keys(runs.body.runs?.[0] ?? {})).toEqual(["state", "outputs", "index", "runId"]);
    const error = await spell.start("nope", {}, false);
    expect(error.body.code).toBe("spell_not_found");
    expect(error.body._emulator).toBeDefined();
    const stats = await httpRequest(`${emulator.baseUrl}/_emulator/stats`, {
      method: "GET",
      headers: spell.auth,
    });
    expect(stats.body._emulator).toBeUndefined();
  });

  it("should never fault the control API nor a CORS preflight", async () => {
    emulator.setFaults({
      rate503: 1,
      rate429: 1,
      dropRate: 1,
      dropPhase: "before",
      latencyMs: 1000,
    });
    const began = Date.now();
    const stats = await httpRequest(`${emulator.baseUrl}/_emulator/stats`, {
      method: "GET",
      headers: spell.auth,
    });
    expect(stats.status).toBe(200);
    const preflight = await httpRequest(`${emulator.baseUrl}/spells/start`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:9876",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(Date.now() - began).toBeLessThan(500);
  });
});
