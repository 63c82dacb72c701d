import { inspect } from "node:util";
import { lastValueFrom } from "rxjs";
import {
  SpellClient,
  SpellError,
  SpellHttpError,
  SpellProtocolError,
  SpellRunError,
} from "../../src/index.js";
import { startScriptedService, type ScriptedService } from "./support/scriptedService.js";

// A "/" so that the JSON escape "\/" is tried too.
const KEY = "sk-live/7f3a9c-secret";
/** The key as a JSON serialiser may escape it: "\/" for "/", "\u00xx" for any character. */
const ESCAPED = [
  KEY.replace("/", "\\/"),
  Array.from(KEY, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
  KEY.replace("k", "\\u006B").replace("/", "\\u002f"),
];

describe("SpellClient redaction of an echoed key (hostile services)", () => {
  const services: ScriptedService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
  });

  async function clientOf(script: Parameters<typeof startScriptedService>[0]) {
    const service = await startScriptedService(script);
    services.push(service);
    const client = new SpellClient({
      apiKey: KEY,
      baseUrl: service.baseUrl,
      pollBaseUrl: service.pollBaseUrl,
      retry: { limit: 0 },
    });
    return { service, client };
  }

  function failureOf(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => fail("should have failed"),
      (caught: unknown) => caught
    );
  }

  /** What Node prints for an uncaught error: every field, nested, hidden ones too. */
  function printed(error: unknown): string {
    return `${inspect(error, { depth: 20, showHidden: true })} ${JSON.stringify(error)}`;
  }

  it("should redact a JSON-escaped key in an error body (.body and message)", async () => {
    for (const echo of ESCAPED) {
      const { client, service } = await clientOf(() => ({
        status: 401,
        body: `{"message":"bad key ${echo}","debug":{"authorization":"Bearer ${echo}"}}`,
      }));
      const error = await failureOf(client.runOutputs("echo", {}, { wait: false }));
      expect(error).toBeInstanceOf(SpellHttpError);
      expect(printed(error)).withContext(echo).not.toContain(KEY);
      expect((error as Error).message).toContain("bad key [redacted]");
      // The error names its request: method, endpoint and the URL (never a header).
      expect(error).toEqual(
        jasmine.objectContaining({
          method: "POST",
          endpoint: "start",
          url: `${service.baseUrl}/spells/start`,
        })
      );
    }
  });

  it("should redact the key in the outputs of a failed run and in a protocol error's body", async () => {
    const { client } = await clientOf((request) =>
      request.endpoint === "start"
        ? { body: { runId: "run-1" } }
        : { body: `{"state":"failure","outputs":{"echo":"${ESCAPED[1]}","raw":"${KEY}"}}` }
    );
    const failed = await failureOf(client.runOutputs("echo", {}, { wait: false }));
    expect(failed).toBeInstanceOf(SpellRunError);
    expect((failed as SpellRunError).outputs).toEqual({ echo: "[redacted]", raw: "[redacted]" });
    expect(printed(failed)).not.toContain(KEY);

    const { client: other } = await clientOf(() => ({ body: `not json ${ESCAPED[0]}` }));
    const protocol = await failureOf(other.runOutputs("echo", {}, { wait: false }));
    expect(protocol).toBeInstanceOf(SpellProtocolError);
    expect(printed(protocol)).not.toContain(KEY);
  });

  it("should never put the key into a URL, from a run id the service sent or one given to resumeRun", async () => {
    const { service, client } = await clientOf((request) =>
      request.endpoint === "start"
        ? { body: `{"runId":"run-${ESCAPED[0]}"}` }
        : { body: { state: "success", outputs: {} } }
    );
    const snapshots = await lastValueFrom(client.run("echo", {}, { wait: false }));
    expect(snapshots.runId).toBe("run-[redacted]");
    const polled = service.requests.filter((request) => request.endpoint === "getRun");
    expect(polled.length).toBe(1);
    expect(polled[0].query.get("runId")).toBe("run-[redacted]");

    const before = service.requests.length;
    const error = await failureOf(lastValueFrom(client.resumeRun(`run-${KEY}`)));
    expect(error).toBeInstanceOf(SpellError);
    expect((error as Error).message).toMatch(/holds the API key/);
    expect(printed(error)).not.toContain(KEY);
    expect(service.requests.length).toBe(before);
  });

  it("should keep the JSON intact: a key as a property name is scrubbed, a short key leaves successful answers alone", async () => {
    const { client } = await clientOf(() => ({
      status: 400,
      body: `{"message":"bad","debug":{"${ESCAPED[0]}":"x"}}`,
    }));
    const error = await failureOf(client.runOutputs("echo", {}));
    expect((error as SpellHttpError).body).toEqual({
      message: "bad",
      debug: { "[redacted]": "x" },
    });
    expect(printed(error)).not.toContain(KEY);

    // "s" appears in "success" and "status": a key that short is no secret to scrub from answers.
    const service = await startScriptedService((request) =>
      request.endpoint === "start"
        ? { body: { runId: "runs-1" } }
        : { body: { state: "success", outputs: { status: "yes" } } }
    );
    services.push(service);
    const short = new SpellClient({
      apiKey: "s",
      baseUrl: service.baseUrl,
      pollBaseUrl: service.pollBaseUrl,
    });
    await expectAsync(short.runOutputs("echo", {}, { wait: false })).toBeResolvedTo({
      status: "yes",
    });
  });
});
