import { startEmulator } from "../../emulator/startEmulator.js";
import type { RunningEmulator } from "../../emulator/startEmulator.js";
import { expectErrorShape, httpRequest, spellApi } from "./support/emulatorHttp.js";

describe("emulator error shape", () => {
  let emulator: RunningEmulator;
  let spell: ReturnType<typeof spellApi>;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02, bodyLimitBytes: 10_000 });
    spell = spellApi(emulator);
  });
  afterAll(() => emulator.close());

  it("should answer 400 invalid_json for malformed JSON on every POST endpoint", async () => {
    for (const path of [
      "/spells/start",
      "/spells/bulkStart",
      "/spells/cancelBulk",
      "/spells/getBulkRuns",
    ]) {
      expectErrorShape(await spell.post(path, '{"spellId": "echo",'), 400, "invalid_json");
    }
    const getRun = await httpRequest(`${emulator.pollBaseUrl}/spells/getRun`, {
      method: "GET",
      headers: spell.auth,
      body: "{runId",
    });
    expectErrorShape(getRun, 400, "invalid_json");
  });

  it("should take an empty JSON body as no body", async () => {
    const start = await httpRequest(`${emulator.baseUrl}/spells/start`, {
      headers: { ...spell.auth, "content-type": "application/json" },
      body: "",
    });
    expectErrorShape(start, 400, "missing_spell_id");
    const getRun = await httpRequest(`${emulator.pollBaseUrl}/spells/getRun?runId=run_0_none`, {
      method: "GET",
      headers: { ...spell.auth, "content-type": "application/json" },
      body: "",
    });
    expectErrorShape(getRun, 404, "run_not_found");
  });

  it("should take a __proto__ key as data (an input of that name), never as a prototype", async () => {
    const result = await spell.post(
      "/spells/start",
      '{"spellId":"echo","wait":"true","inputs":{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}}}}'
    );
    expect(result.status).toBe(200);
    expect(JSON.stringify(result.body)).toBe(
      '{"outputs":{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}}}}'
    );
    // Nothing reached Object.prototype.
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).y).toBeUndefined();
    // The other specs here count runs created from zero.
    emulator.resetStats();
  });

  it("should answer 413 above the body limit", async () => {
    const result = await spell.start("echo", { text: "x".repeat(20_000) }, false);
    expectErrorShape(result, 413, "body_too_large");
    expect(emulator.stats.runsCreated).toBe(0);
  });

  it("should answer 415 for a body that is not JSON", async () => {
    const result = await httpRequest(`${emulator.baseUrl}/spells/start`, {
      headers: { ...spell.auth, "content-type": "text/csv" },
      body: "a,b",
    });
    expectErrorShape(result, 415, "unsupported_media_type");
  });

  it("should answer 404 route_not_found for unknown paths and methods on both hosts", async () => {
    expectErrorShape(await spell.post("/spells/nothing", {}), 404, "route_not_found");
    expectErrorShape(
      await httpRequest(`${emulator.baseUrl}/spells/start`, { method: "GET", headers: spell.auth }),
      404,
      "route_not_found"
    );
    expectErrorShape(
      await httpRequest(`${emulator.pollBaseUrl}/`, { method: "GET", headers: spell.auth }),
      404,
      "route_not_found"
    );
  });

  it("should answer 404 for unknown groups and 400 without a groupId", async () => {
    expectErrorShape(await spell.getBulkRuns("bulk_0_none"), 404, "group_not_found");
    expectErrorShape(await spell.cancelBulk("bulk_0_none"), 404, "group_not_found");
    expectErrorShape(await spell.post("/spells/getBulkRuns", {}), 400, "missing_group_id");
    expectErrorShape(
      await spell.post("/spells/cancelBulk", { groupId: 5 }),
      400,
      "missing_group_id"
    );
  });
});
