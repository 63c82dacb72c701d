import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { SpellClient } from "../../src/index.js";
import { startScriptedService, type ScriptedService } from "./support/scriptedService.js";

const KEY = "sk-check-secret";

describe("SpellClient.checkConnection (scripted services)", () => {
  const services: ScriptedService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
  });

  async function check(status: number, pollBaseUrl?: string) {
    const service = await startScriptedService(() => ({ status, body: { message: "x" } }));
    services.push(service);
    const client = new SpellClient({
      apiKey: KEY,
      baseUrl: service.baseUrl,
      pollBaseUrl: pollBaseUrl ?? service.pollBaseUrl,
    });
    return { result: await client.checkConnection(), service };
  }

  it("should call both hosts connected when each answers 404 for the made-up id, sending one request each", async () => {
    const { result, service } = await check(404);
    expect(result).toEqual(jasmine.objectContaining({ ok: true, keyAccepted: true }));
    expect(service.requests.map((request) => request.endpoint).sort()).toEqual([
      "getBulkRuns",
      "getRun",
    ]);
  });

  it("should say the key was refused on 401, not retried, without the key in the message", async () => {
    const { result, service } = await check(401);
    expect(result.ok).toBeFalse();
    expect(result.reachable).toBeTrue();
    expect(result.keyAccepted).toBeFalse();
    expect(result.message).toContain("refused the API key (HTTP 401)");
    expect(result.message).not.toContain(KEY);
    expect(service.requests.length).toBe(2);
  });

  it("should name the host that does not answer, even with the default retries (a 503 is not unreachable)", async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const { result } = await check(404, closed);
    expect(result.reachable).toBeFalse();
    expect(result.message).toContain(`poll base URL (${closed})`);

    const { result: busy } = await check(503);
    expect(busy.reachable).toBeTrue();
    expect(busy.message).toContain("unexpectedly");
  });
});
