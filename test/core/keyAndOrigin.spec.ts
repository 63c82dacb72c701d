import { inspect } from "node:util";
import { lastValueFrom } from "rxjs";
import { SpellClient, SpellError, SpellProtocolError } from "../../src/index.js";
import { startScriptedService, type ScriptedService } from "./support/scriptedService.js";

const KEY = "sk-live-7f3a9c-secret";

describe("SpellClient and the key (hostile services)", () => {
  const services: ScriptedService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
  });

  async function service(script: Parameters<typeof startScriptedService>[0]) {
    const started = await startScriptedService(script);
    services.push(started);
    return started;
  }

  it("should not follow a redirect to another origin, so neither the key nor the body goes there", async () => {
    const elsewhere = await service(() => ({ body: { runId: "stolen" } }));
    for (const status of [301, 302, 303, 307, 308]) {
      const redirecting = await service(() => ({
        status,
        body: "",
        headers: { location: `${elsewhere.baseUrl}/spells/start` },
      }));
      const client = new SpellClient({
        apiKey: KEY,
        baseUrl: redirecting.baseUrl,
        pollBaseUrl: redirecting.pollBaseUrl,
      });

      const error = await client
        .runOutputs("echo", { text: "private" }, { wait: false })
        .catch((caught: unknown) => caught);

      expect(error).withContext(String(status)).toBeInstanceOf(SpellProtocolError);
      expect((error as Error).message).toContain(
        `redirect (HTTP ${status} to ${elsewhere.baseUrl}`
      );
      expect(redirecting.requests.length).toBe(1); // not retried: it may be a start
    }
    expect(elsewhere.requests).toEqual([]);
  });

  it("should take any 2xx answer to cancelBulk as done (204, empty 200, plain text 200)", async () => {
    for (const answer of [
      { status: 204, body: "" },
      { status: 200, body: "" },
      { status: 200, body: "cancelled" },
    ]) {
      const cancelling = await service(() => answer);
      const client = new SpellClient({
        apiKey: KEY,
        baseUrl: cancelling.baseUrl,
        pollBaseUrl: cancelling.pollBaseUrl,
      });
      await expectAsync(lastValueFrom(client.cancelBulk("group-1"), { defaultValue: undefined }))
        .withContext(`HTTP ${answer.status} ${JSON.stringify(answer.body)}`)
        .toBeResolved();
      expect(cancelling.requests.map((request) => request.endpoint)).toEqual(["cancelBulk"]);
    }
  });

  it("should never show the key through util.inspect or JSON.stringify of the client", () => {
    const client = new SpellClient({
      apiKey: KEY,
      baseUrl: "http://127.0.0.1:9",
      pollBaseUrl: "http://127.0.0.1:9",
      authHeader: "x-api-key",
    });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(client)).not.toContain(KEY);
  });

  it("should refuse a key with a line break, space or non-ASCII character at construction, without repeating it", () => {
    for (const apiKey of [`${KEY}\n`, `${KEY} `, `${KEY}\r\nX-Injected: 1`]) {
      let error: unknown;
      try {
        new SpellClient({
          apiKey,
          baseUrl: "http://127.0.0.1:9",
          pollBaseUrl: "http://127.0.0.1:9",
        });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(SpellError);
      expect((error as Error).message).toMatch(/line break/);
      expect((error as Error).message).not.toContain(KEY);
    }
    expect(
      () => new SpellClient({ apiKey: "", baseUrl: "http://x", pollBaseUrl: "http://x" })
    ).toThrowError(SpellError, /apiKey is required/);
    // fetch cannot put these in a header: every request would fail as a "network error".
    for (const apiKey of [`${KEY}\u2013x`, `ключ-${KEY}`, `${KEY}\u00e9`]) {
      expect(() => new SpellClient({ apiKey, baseUrl: "http://x", pollBaseUrl: "http://x" }))
        .withContext(apiKey)
        .toThrowError(SpellError, /^SpellClient: apiKey holds a character that is not plain ASCII/);
    }
  });
});
