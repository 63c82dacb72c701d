import { startEmulator } from "../../emulator/startEmulator.js";
import type { RunningEmulator } from "../../emulator/startEmulator.js";
import {
  expectErrorShape,
  httpRequest,
  pollUntilFinished,
  spellApi,
} from "./support/emulatorHttp.js";

describe("emulator GET /spells/getRun (poll host)", () => {
  let emulator: RunningEmulator;
  let spell: ReturnType<typeof spellApi>;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
    spell = spellApi(emulator);
  });
  afterAll(() => emulator.close());

  it("should listen on its own port, apart from the base host", () => {
    expect(new URL(emulator.pollBaseUrl).port).not.toBe(new URL(emulator.baseUrl).port);
  });

  it("should show inProgress with {} outputs, then the outputs", async () => {
    const started = await spell.start("sleep", { ms: 10_000 }, false); // 200 ms
    const first = await spell.getRun(started.body.runId as string);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ state: "inProgress", outputs: {} });
    const finished = await pollUntilFinished(spell, started.body.runId as string);
    expect(finished.body).toEqual({ state: "success", outputs: { slept: 10_000 } });
  });

  it("should accept the JSON-body form of a GET", async () => {
    const started = await spell.start("echo", { x: 1 }, false);
    const runId = started.body.runId as string;
    await pollUntilFinished(spell, runId);
    const result = await httpRequest(`${emulator.pollBaseUrl}/spells/getRun`, {
      method: "GET",
      headers: spell.auth,
      body: { runId },
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ state: "success", outputs: { x: 1 } });
  });

  it("should answer 404 for an unknown runId and 400 without one", async () => {
    expectErrorShape(await spell.getRun("run_999_nope"), 404, "run_not_found");
    expectErrorShape(
      await httpRequest(`${emulator.pollBaseUrl}/spells/getRun`, {
        method: "GET",
        headers: spell.auth,
      }),
      400,
      "missing_run_id"
    );
  });

  it("should not serve getRun on the base host, nor start on the poll host", async () => {
    const onBase = await httpRequest(`${emulator.baseUrl}/spells/getRun?runId=1`, {
      method: "GET",
      headers: spell.auth,
    });
    expectErrorShape(onBase, 404, "route_not_found");
    const onPoll = await httpRequest(`${emulator.pollBaseUrl}/spells/start`, {
      headers: spell.auth,
      body: { spellId: "echo", inputs: {} },
    });
    expectErrorShape(onPoll, 404, "route_not_found");
  });

  it("should accept a numeric runId as text or as a JSON number", async () => {
    emulator.setFaults({ runIdType: "number" });
    try {
      const started = await spell.start("echo", { n: 1 }, false);
      expect(typeof started.body.runId).toBe("number");
      const runId = started.body.runId as number;
      await pollUntilFinished(spell, runId);
      expect((await spell.getRun(String(runId))).body.state).toBe("success");
      const viaBody = await httpRequest(`${emulator.pollBaseUrl}/spells/getRun`, {
        method: "GET",
        headers: spell.auth,
        body: { runId },
      });
      expect(viaBody.body).toEqual({ state: "success", outputs: { n: 1 } });
    } finally {
      emulator.setFaults({});
    }
  });
});
