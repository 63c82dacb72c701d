import { startEmulator } from "../../emulator/startEmulator.js";
import type { RunningEmulator } from "../../emulator/startEmulator.js";
import { httpRequest } from "./support/emulatorHttp.js";

describe("emulator CORS", () => {
  let emulator: RunningEmulator;
  const origin = "http://localhost:9876";

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
  });
  afterAll(() => emulator.close());

  const preflight = (url: string, method: string, headers: string) =>
    httpRequest(url, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": method,
        "access-control-request-headers": headers,
      },
    });

  it("should answer preflights on both hosts without a key", async () => {
    const targets: [string, string][] = [
      [`${emulator.baseUrl}/spells/start`, "POST"],
      [`${emulator.baseUrl}/spells/bulkStart`, "POST"],
      [`${emulator.baseUrl}/spells/cancelBulk`, "POST"],
      [`${emulator.baseUrl}/spells/getBulkRuns`, "POST"],
      [`${emulator.baseUrl}/_emulator/stats`, "GET"],
      [`${emulator.pollBaseUrl}/spells/getRun?runId=run_1_x`, "GET"],
    ];
    const startsBefore = emulator.stats.requests.start;
    for (const [url, method] of targets) {
      const result = await preflight(url, method, "authorization,x-api-key,content-type,accept");
      expect(result.status).withContext(url).toBe(204);
      expect(result.headers["access-control-allow-origin"]).toBe("*");
      const allowed = String(result.headers["access-control-allow-headers"]).toLowerCase();
      for (const header of ["authorization", "x-api-key", "content-type", "accept"]) {
        expect(allowed).withContext(url).toContain(header);
      }
      expect(String(result.headers["access-control-allow-methods"])).toContain(method);
    }
    expect(emulator.stats.requests.start).toBe(startsBefore); // preflights reach no route
  });

  it("should put CORS headers on answers, errors included, and expose Retry-After", async () => {
    const ok = await httpRequest(`${emulator.baseUrl}/spells/start`, {
      headers: { origin, authorization: `Bearer ${emulator.apiKey}` },
      body: { spellId: "echo", inputs: {} },
    });
    expect(ok.headers["access-control-allow-origin"]).toBe("*");
    expect(String(ok.headers["access-control-expose-headers"]).toLowerCase()).toContain(
      "retry-after"
    );
    const denied = await httpRequest(`${emulator.pollBaseUrl}/spells/getRun?runId=1`, {
      method: "GET",
      headers: { origin },
    });
    expect(denied.status).toBe(401);
    expect(denied.headers["access-control-allow-origin"]).toBe("*");
  });
});
