import { startEmulator } from "../../emulator/startEmulator.js";
import type { RunningEmulator } from "../../emulator/startEmulator.js";
import { expectErrorShape, httpRequest, spellApi } from "./support/emulatorHttp.js";

describe("emulator control API", () => {
  let emulator: RunningEmulator;
  let spell: ReturnType<typeof spellApi>;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
    spell = spellApi(emulator);
  });
  afterAll(() => emulator.close());

  const stats = () =>
    httpRequest(`${emulator.baseUrl}/_emulator/stats`, { method: "GET", headers: spell.auth });

  it("should serve the live stats", async () => {
    await spell.start("echo", {}, false);
    const requestsBefore = { ...emulator.stats.requests };
    const { status, body } = await stats();
    expect(status).toBe(200);
    expect(body.runsCreated).toBe(emulator.stats.runsCreated);
    expect(body.runsCreated).toBeGreaterThan(0);
    expect(body.requests).toEqual(requestsBefore);
    expect(typeof body.inFlight).toBe("number");
    expect(emulator.stats.requests).toEqual(requestsBefore); // the control API is not counted
  });

  it("should set faults with POST /_emulator/faults", async () => {
    const set = await spell.post("/_emulator/faults", { rate503: 1 });
    expect(set.status).toBe(200);
    expect(set.body.faults).toEqual({ rate503: 1 });
    expect((await spell.start("echo", {}, false)).status).toBe(503);
    await spell.post("/_emulator/faults", {});
    expect((await spell.start("echo", {}, false)).status).toBe(200);
  });

  it("should clear runs, groups and stats and set faults with POST /_emulator/reset", async () => {
    const run = await spell.start("echo", {}, false);
    const group = await spell.bulkStart("echo", [{}]);
    const reset = await spell.post("/_emulator/reset", { faults: { runIdType: "number" } });
    expect(reset.status).toBe(200);
    expect(emulator.stats.runsCreated).toBe(0);
    expect(emulator.stats.requests.start).toBe(0);
    expect((await spell.getRun(run.body.runId as string)).status).toBe(404);
    expect((await spell.getBulkRuns(group.body.runId as string)).status).toBe(404);
    expect(typeof (await spell.start("echo", {}, false)).body.runId).toBe("number");
    const bare = await httpRequest(`${emulator.baseUrl}/_emulator/reset`, { headers: spell.auth });
    expect(bare.status).toBe(200);
    expect(typeof (await spell.start("echo", {}, false)).body.runId).toBe("string");
  });

  it("should reject bad fault bodies with the error shape", async () => {
    expectErrorShape(await spell.post("/_emulator/reset", { faults: 3 }), 400, "invalid_faults");
    expectErrorShape(await spell.post("/_emulator/faults", [1]), 400, "invalid_body");
  });
});
