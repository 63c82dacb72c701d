import { expectErrorShape, httpRequest } from "./support/emulatorHttp.js";
import { useEmulator } from "./support/useEmulator.js";

describe("emulator control API", () => {
  const fixture = useEmulator();

  const stats = () =>
    httpRequest(`${fixture.emulator.baseUrl}/_emulator/stats`, {
      method: "GET",
      headers: fixture.spell.auth,
    });

  it("should serve the live stats", async () => {
    await fixture.spell.start("echo", {}, false);
    const requestsBefore = { ...fixture.emulator.stats.requests };
    const { status, body } = await stats();
    expect(status).toBe(200);
    expect(body.runsCreated).toBe(fixture.emulator.stats.runsCreated);
    expect(body.runsCreated).toBeGreaterThan(0);
    expect(body.requests).toEqual(requestsBefore);
    expect(typeof body.inFlight).toBe("number");
    expect(fixture.emulator.stats.requests).toEqual(requestsBefore); // the control API is not counted
  });

  it("should set faults with POST /_emulator/faults", async () => {
    const set = await fixture.spell.post("/_emulator/faults", { rate503: 1 });
    expect(set.status).toBe(200);
    expect(set.body.faults).toEqual({ rate503: 1 });
    expect((await fixture.spell.start("echo", {}, false)).status).toBe(503);
    await fixture.spell.post("/_emulator/faults", {});
    expect((await fixture.spell.start("echo", {}, false)).status).toBe(200);
  });

  it("should clear runs, groups and stats and set faults with POST /_emulator/reset", async () => {
    const run = await fixture.spell.start("echo", {}, false);
    const group = await fixture.spell.bulkStart("echo", [{}]);
    const reset = await fixture.spell.post("/_emulator/reset", { faults: { runIdType: "number" } });
    expect(reset.status).toBe(200);
    expect(fixture.emulator.stats.runsCreated).toBe(0);
    expect(fixture.emulator.stats.requests.start).toBe(0);
    expect((await fixture.spell.getRun(run.body.runId as string)).status).toBe(404);
    expect((await fixture.spell.getBulkRuns(group.body.runId as string)).status).toBe(404);
    expect(typeof (await fixture.spell.start("echo", {}, false)).body.runId).toBe("number");
    const bare = await httpRequest(`${fixture.emulator.baseUrl}/_emulator/reset`, {
      headers: fixture.spell.auth,
    });
    expect(bare.status).toBe(200);
    expect(typeof (await fixture.spell.start("echo", {}, false)).body.runId).toBe("string");
  });

  it("should reject bad fault bodies with the error shape", async () => {
    expectErrorShape(
      await fixture.spell.post("/_emulator/reset", { faults: 3 }),
      400,
      "invalid_faults"
    );
    expectErrorShape(await fixture.spell.post("/_emulator/faults", [1]), 400, "invalid_body");
  });
});
