import { startEmulator } from "../../emulator/startEmulator.js";
import type { RunningEmulator } from "../../emulator/startEmulator.js";
import { expectErrorShape, httpRequest, spellApi } from "./support/emulatorHttp.js";

describe("emulator authentication", () => {
  let emulator: RunningEmulator;
  let spell: ReturnType<typeof spellApi>;
  const body = { spellId: "echo", inputs: { a: 1 }, wait: false };

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02, apiKey: "test-key-123" });
    spell = spellApi(emulator);
  });
  afterAll(() => emulator.close());

  it("should accept Authorization: Bearer and x-api-key, header names in any case", async () => {
    const forms: Record<string, string>[] = [
      { authorization: "Bearer test-key-123" },
      { Authorization: "Bearer test-key-123" },
      { AUTHORIZATION: "bearer test-key-123" },
      { "x-api-key": "test-key-123" },
      { "X-Api-Key": "test-key-123" },
      { "X-API-KEY": "test-key-123" },
    ];
    for (const headers of forms) {
      const result = await spell.post("/spells/start", body, headers);
      expect(result.status).withContext(JSON.stringify(headers)).toBe(200);
      const polled = await spell.getRun(result.body.runId as string, headers);
      expect(polled.status).withContext(JSON.stringify(headers)).toBe(200);
    }
  });

  it("should answer 401 for a missing or wrong key on every endpoint, without starting anything", async () => {
    const wrong: Record<string, string>[] = [
      {},
      { authorization: "Bearer nope" },
      { authorization: "test-key-123" },
      { authorization: "Basic test-key-123" },
      { "x-api-key": "test-key-1234" },
      { "x-api-key": "" },
    ];
    const created = emulator.stats.runsCreated;
    for (const headers of wrong) {
      for (const path of [
        "/spells/start",
        "/spells/bulkStart",
        "/spells/cancelBulk",
        "/spells/getBulkRuns",
      ]) {
        const result = await spell.post(path, body, headers);
        expectErrorShape(result, 401, "unauthorized");
        expect(result.text).not.toContain("test-key-123");
      }
      expectErrorShape(await spell.getRun("run_1_x", headers), 401, "unauthorized");
      expectErrorShape(
        await httpRequest(`${emulator.baseUrl}/_emulator/stats`, { method: "GET", headers }),
        401,
        "unauthorized"
      );
    }
    expect(emulator.stats.runsCreated).toBe(created);
  });

  it("should check the key before reading the body", async () => {
    const result = await spell.post("/spells/start", "{not json", {});
    expectErrorShape(result, 401, "unauthorized");
  });
});
