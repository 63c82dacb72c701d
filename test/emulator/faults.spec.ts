import { expectErrorShape, httpRequest, pollUntilFinished, sleep } from "./support/emulatorHttp.js";
import { useEmulator } from "./support/useEmulator.js";

describe("emulator fault injection", () => {
  const fixture = useEmulator();
  beforeEach(() => {
    fixture.emulator.setFaults({});
    fixture.emulator.resetStats();
  });

  it("should inject no faults by default", async () => {
    for (let call = 0; call < 20; call++) {
      expect((await fixture.spell.start("echo", { call }, false)).status).toBe(200);
    }
    expect(fixture.emulator.stats.faults).toEqual({});
  });

  it("should answer 429 with Retry-After and start nothing", async () => {
    fixture.emulator.setFaults({ rate429: 1, retryAfterSeconds: 7 });
    const result = await fixture.spell.post(
      "/spells/start",
      { spellId: "echo", inputs: {} },
      {
        ...fixture.spell.auth,
        origin: "http://localhost:9876",
      }
    );
    expectErrorShape(result, 429, "rate_limited");
    expect(result.headers["retry-after"]).toBe("7");
    expect(result.headers["access-control-expose-headers"]?.toLowerCase()).toContain("retry-after");
    expectErrorShape(await fixture.spell.bulkStart("echo", [{}]), 429, "rate_limited");
    expect(fixture.emulator.stats.runsCreated).toBe(0);
    expect(fixture.emulator.stats.bulkGroupsCreated).toBe(0);
    expect(fixture.emulator.stats.requests.start).toBe(1);
    expect(fixture.emulator.stats.faults["429"]).toBe(2);
  });

  it("should answer 503 and start nothing", async () => {
    fixture.emulator.setFaults({ rate503: 1 });
    expectErrorShape(await fixture.spell.start("echo", {}, true), 503, "unavailable");
    expect(fixture.emulator.stats.runsCreated).toBe(0);
    expect(fixture.emulator.stats.faults["503"]).toBe(1);
  });

  it("should answer 500 on reads only", async () => {
    const started = await fixture.spell.start("echo", { a: 1 }, false);
    const group = await fixture.spell.bulkStart("echo", [{}]);
    fixture.emulator.setFaults({ rate500OnReads: 1 });
    expectErrorShape(
      await fixture.spell.getRun(started.body.runId as string),
      500,
      "internal_error"
    );
    expectErrorShape(
      await fixture.spell.getBulkRuns(group.body.runId as string),
      500,
      "internal_error"
    );
    expect((await fixture.spell.start("echo", { a: 2 }, false)).status).toBe(200);
    expect((await fixture.spell.cancelBulk(group.body.runId as string)).status).toBe(200);
    expect(fixture.emulator.stats.faults["500"]).toBe(2);
  });

  it("should add latency, only on the chosen endpoints", async () => {
    fixture.emulator.setFaults({ latencyMs: 300, endpoints: ["getRun"] });
    const started = await fixture.spell.start("echo", {}, false);
    let began = Date.now();
    await fixture.spell.start("echo", {}, false);
    expect(Date.now() - began).toBeLessThan(250);
    began = Date.now();
    await fixture.spell.getRun(started.body.runId as string);
    expect(Date.now() - began).toBeGreaterThanOrEqual(295);
    expect(fixture.emulator.stats.faults.latency).toBe(1);
  });

  it("should drop a start's connection after creating the run by default", async () => {
    fixture.emulator.setFaults({ dropRate: 1 });
    await expectAsync(fixture.spell.start("echo", { dropped: 1 }, false)).toBeRejected();
    expect(fixture.emulator.stats.runsCreated).toBe(1);
    expect(fixture.emulator.stats.createdByKey['["echo",{"dropped":1}]']).toBe(1);
    expect(fixture.emulator.stats.requests.start).toBe(1);
    expect(fixture.emulator.stats.faults.drop).toBe(1);
  });

  it("should drop a start's connection before creating the run with dropPhase before", async () => {
    fixture.emulator.setFaults({ dropRate: 1, dropPhase: "before" });
    await expectAsync(fixture.spell.start("echo", { dropped: 2 }, true)).toBeRejected();
    await expectAsync(fixture.spell.bulkStart("echo", [{}])).toBeRejected();
    expect(fixture.emulator.stats.runsCreated).toBe(0);
    expect(fixture.emulator.stats.bulkGroupsCreated).toBe(0);
  });

  it("should drop reads and cancel the group before dropping cancelBulk's answer", async () => {
    const started = await fixture.spell.start("echo", {}, false);
    const group = await fixture.spell.bulkStart("sleep", [{ ms: 100_000 }]);
    fixture.emulator.setFaults({ dropRate: 1 });
    await expectAsync(fixture.spell.getRun(started.body.runId as string)).toBeRejected();
    await expectAsync(fixture.spell.cancelBulk(group.body.runId as string)).toBeRejected();
    fixture.emulator.setFaults({});
    const runs = await fixture.spell.getBulkRuns(group.body.runId as string);
    expect(runs.body.runs).toEqual([{ state: "error", outputs: { error: "Cancelled" } }]);
  });

  it("should draw faults from a seeded PRNG: same seed, same faults", async () => {
    const statuses = async (): Promise<number[]> => {
      fixture.emulator.setFaults({ rate503: 0.5, seed: 42 });
      const seen: number[] = [];
      for (let call = 0; call < 16; call++)
        seen.push((await fixture.spell.start("echo", {}, false)).status);
      return seen;
    };
    const first = await statuses();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await statuses()).toEqual(first);
  });

  it("should give numeric single run ids with runIdType number", async () => {
    fixture.emulator.setFaults({ runIdType: "number" });
    const first = await fixture.spell.start("echo", {}, false);
    const second = await fixture.spell.start("echo", {}, false);
    expect(typeof first.body.runId).toBe("number");
    expect(second.body.runId).toBe((first.body.runId as number) + 1);
    expect((await pollUntilFinished(fixture.spell, first.body.runId as number)).body.state).toBe(
      "success"
    );
    const group = await fixture.spell.bulkStart("echo", [{}]);
    expect(typeof group.body.runId).toBe("string");
  });

  it("should make bulk runs appear progressively with lazyBulk", async () => {
    fixture.emulator.setFaults({ lazyBulk: { groupVisibleAfterMs: 80, runsPerPoll: 3 } });
    const started = await fixture.spell.bulkStart(
      "echo",
      Array.from({ length: 7 }, (_, index) => ({ index }))
    );
    const groupId = started.body.runId as string;
    expectErrorShape(await fixture.spell.getBulkRuns(groupId), 404, "group_not_found");
    await sleep(100);
    const lengths: number[] = [];
    for (let poll = 0; poll < 4; poll++) {
      const { body } = await fixture.spell.getBulkRuns(groupId);
      lengths.push(body.runs?.length ?? -1);
      body.runs?.forEach((run, index) => {
        if (run.state === "success") expect(run.outputs).toEqual({ index });
      });
    }
    expect(lengths).toEqual([3, 6, 7, 7]);
  });

  it("should use defaults for lazyBulk: true and still allow cancelBulk while invisible", async () => {
    fixture.emulator.setFaults({ lazyBulk: true });
    const started = await fixture.spell.bulkStart(
      "sleep",
      Array.from({ length: 8 }, () => ({ ms: 100_000 }))
    );
    const groupId = started.body.runId as string;
    expectErrorShape(await fixture.spell.getBulkRuns(groupId), 404, "group_not_found");
    expect((await fixture.spell.cancelBulk(groupId)).body).toEqual({ groupId, cancelled: 8 });
    await sleep(320);
    expect((await fixture.spell.getBulkRuns(groupId)).body.runs?.length).toBe(2); // ceil(8 / 4)
  });

  it("should add unknown fields to every body with extraFields, except the control API", async () => {
    fixture.emulator.setFaults({ extraFields: true });
    const started = await fixture.spell.start("echo", { a: 1 }, false);
    expect(started.body.runId).toBeDefined();
    expect(Object.keys(started.body).length).toBeGreaterThan(1);
    const waited = await fixture.spell.start("echo", { a: 1 }, true);
    expect(waited.body.outputs).toEqual({ a: 1 });
    expect(waited.body.apiVersion).toBeDefined();
    const polled = await fixture.spell.getRun(started.body.runId as string);
    expect(polled.body._emulator).toBeDefined();
    const group = await fixture.spell.bulkStart("echo", [{ b: 1 }]);
    const runs = await fixture.spell.getBulkRuns(group.body.runId as string);
    expect(Object.keys(runs.body.runs?.[0] ?? {})).toEqual(["state", "outputs", "index", "runId"]);
    const error = await fixture.spell.start("nope", {}, false);
    expect(error.body.code).toBe("spell_not_found");
    expect(error.body._emulator).toBeDefined();
    const stats = await httpRequest(`${fixture.emulator.baseUrl}/_emulator/stats`, {
      method: "GET",
      headers: fixture.spell.auth,
    });
    expect(stats.body._emulator).toBeUndefined();
  });

  it("should never fault the control API nor a CORS preflight", async () => {
    fixture.emulator.setFaults({
      rate503: 1,
      rate429: 1,
      dropRate: 1,
      dropPhase: "before",
      latencyMs: 1000,
    });
    const began = Date.now();
    const stats = await httpRequest(`${fixture.emulator.baseUrl}/_emulator/stats`, {
      method: "GET",
      headers: fixture.spell.auth,
    });
    expect(stats.status).toBe(200);
    const preflight = await httpRequest(`${fixture.emulator.baseUrl}/spells/start`, {
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
