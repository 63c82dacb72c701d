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

  describe("diagnosis: what is wrong and what to do", () => {
    async function checkAgainst(
      reply: () => { status: number; body: unknown; headers?: Record<string, string> }
    ) {
      const service = await startScriptedService(reply);
      services.push(service);
      const client = new SpellClient({
        apiKey: KEY,
        baseUrl: service.baseUrl,
        pollBaseUrl: service.pollBaseUrl,
        retry: { limit: 0 },
      });
      return client.checkConnection();
    }

    it("should call a web page's 404 a wrong address, naming the address and where to look", async () => {
      const result = await checkAgainst(() => ({
        status: 404,
        body: "<html><body>Not found</body></html>",
        headers: { "content-type": "text/html" },
      }));
      expect(result.ok).toBeFalse();
      expect(result.problem).toBe("wrongAddress");
      expect(result.message).toContain("is not the Spell Run API");
      expect(result.message).toContain("the part before /spells/");
    });

    it("should call a 405 or a 2xx that is not JSON a wrong address", async () => {
      expect((await checkAgainst(() => ({ status: 405, body: "" }))).problem).toBe("wrongAddress");
      const page = await checkAgainst(() => ({
        status: 200,
        body: "<!doctype html><title>Welcome</title>",
        headers: { "content-type": "text/html" },
      }));
      expect(page.problem).toBe("wrongAddress");
    });

    it("should call the service's own JSON 404 connected, and 401 a wrong key with what to check", async () => {
      const connected = await checkAgainst(() => ({ status: 404, body: { error: "Not Found" } }));
      expect(connected.ok).toBeTrue();
      expect(connected.problem).toBeUndefined();
      const refused = await checkAgainst(() => ({ status: 403, body: { error: "Forbidden" } }));
      expect(refused.problem).toBe("wrongKey");
      expect(refused.message).toContain("Check the key and the auth header form");
    });

    it("should tell a browser's CORS refusal (an opaque answer to a keyless no-cors request) from no answer", async () => {
      const keylessRequests: RequestInit[] = [];
      // As a browser does: the CORS request fails like a network error; a no-cors one to a host
      // that answered resolves with an opaque response.
      const browserLikeFetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
        if (init?.mode === "no-cors") {
          keylessRequests.push(init);
          return { type: "opaque" } as Response;
        }
        throw new TypeError("Failed to fetch");
      }) as typeof fetch;
      const client = new SpellClient({
        apiKey: KEY,
        baseUrl: "https://spell.example/api",
        pollBaseUrl: "https://poll.spell.example",
        fetch: browserLikeFetch,
        retry: { limit: 0 },
      });
      const result = await client.checkConnection();
      expect(result.problem).toBe("corsRefused");
      expect(result.message).toContain("https://spell.example/api");
      expect(result.message).toContain("Through the add-in's host");
      expect(keylessRequests.length).toBeGreaterThan(0);
      for (const init of keylessRequests) {
        expect(JSON.stringify(init.headers ?? {})).not.toContain(KEY);
        expect(init.credentials).toBe("omit");
      }

      const nothing = new SpellClient({
        apiKey: KEY,
        baseUrl: "https://spell.example/api",
        pollBaseUrl: "https://poll.spell.example",
        fetch: (async () => {
          throw new TypeError("Failed to fetch");
        }) as typeof fetch,
        retry: { limit: 0 },
      });
      const silent = await nothing.checkConnection();
      expect(silent.problem).toBe("noAnswer");
      expect(silent.message).toContain(
        "does not answer at the base URL (https://spell.example/api)"
      );
    });
  });
});
