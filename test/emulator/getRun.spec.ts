import { expectErrorShape, httpRequest, pollUntilFinished } from "./support/emulatorHttp.js";
import { useEmulator } from "./support/useEmulator.js";

describe("emulator GET /spells/getRun (poll host)", () => {
  const fixture = useEmulator();

  it("should listen on its own port, apart from the base host", () => {
    expect(new URL(fixture.emulator.pollBaseUrl).port).not.toBe(
      new URL(fixture.emulator.baseUrl).port
    );
  });

  it("should show inProgress with {} outputs, then the outputs", async () => {
    const started = await fixture.spell.start("sleep", { ms: 10_000 }, false); // 200 ms
    const first = await fixture.spell.getRun(started.body.runId as string);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ state: "inProgress", outputs: {} });
    const finished = await pollUntilFinished(fixture.spell, started.body.runId as string);
    expect(finished.body).toEqual({ state: "success", outputs: { slept: 10_000 } });
  });

  it("should accept the JSON-body form of a GET", async () => {
    const started = await fixture.spell.start("echo", { x: 1 }, false);
    const runId = started.body.runId as string;
    await pollUntilFinished(fixture.spell, runId);
    const result = await httpRequest(`${fixture.emulator.pollBaseUrl}/spells/getRun`, {
      method: "GET",
      headers: fixture.spell.auth,
      body: { runId },
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ state: "success", outputs: { x: 1 } });
  });

  it("should answer 404 for an unknown runId and 400 without one", async () => {
    expectErrorShape(await fixture.spell.getRun("run_999_nope"), 404, "run_not_found");
    expectErrorShape(
      await httpRequest(`${fixture.emulator.pollBaseUrl}/spells/getRun`, {
        method: "GET",
        headers: fixture.spell.auth,
      }),
      400,
      "missing_run_id"
    );
  });

  it("should not serve getRun on the base host, nor start on the poll host, and say which host does", async () => {
    const onBase = await httpRequest(`${fixture.emulator.baseUrl}/spells/getRun?runId=1`, {
      method: "GET",
      headers: fixture.spell.auth,
    });
    expectErrorShape(onBase, 404, "wrong_host");
    expect(onBase.body.message).toBe(
      `/spells/getRun is served by the poll host: ${fixture.emulator.pollBaseUrl}/spells/getRun`
    );
    const onPoll = await httpRequest(`${fixture.emulator.pollBaseUrl}/spells/start`, {
      headers: fixture.spell.auth,
      body: { spellId: "echo", inputs: {} },
    });
    expectErrorShape(onPoll, 404, "wrong_host");
    expect(onPoll.body.message).toContain(`base host: ${fixture.emulator.baseUrl}/spells/start`);
  });

  it("should accept a numeric runId as text or as a JSON number", async () => {
    fixture.emulator.setFaults({ runIdType: "number" });
    try {
      const started = await fixture.spell.start("echo", { n: 1 }, false);
      expect(typeof started.body.runId).toBe("number");
      const runId = started.body.runId as number;
      await pollUntilFinished(fixture.spell, runId);
      expect((await fixture.spell.getRun(String(runId))).body.state).toBe("success");
      const viaBody = await httpRequest(`${fixture.emulator.pollBaseUrl}/spells/getRun`, {
        method: "GET",
        headers: fixture.spell.auth,
        body: { runId },
      });
      expect(viaBody.body).toEqual({ state: "success", outputs: { n: 1 } });
    } finally {
      fixture.emulator.setFaults({});
    }
  });
});
