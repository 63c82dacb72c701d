import { lastValueFrom } from "rxjs";
import {
  SpellClient,
  SpellHttpError,
  SpellNetworkError,
  SpellProtocolError,
  SpellResponseTooLargeError,
  SpellTimeoutError,
} from "../../src/index.js";
import type { SpellLogEvent } from "../../src/SpellLogEvent.js";
import { startScriptedService, type ScriptedReply } from "./support/scriptedService.js";

const KEY = "sk-live-0123456789abcdef";

describe("SpellClient errors name the request that failed (scripted services)", () => {
  /** The error of one polling-mode start (or of the getRun after it) against `reply`. */
  async function failureOf(
    reply: ScriptedReply,
    endpoint: "start" | "getRun"
  ): Promise<{ error: unknown; baseUrl: string }> {
    const service = await startScriptedService((request) =>
      request.endpoint === endpoint ? reply : { body: { runId: "run 1" } }
    );
    try {
      const client = new SpellClient({
        apiKey: KEY,
        baseUrl: service.baseUrl,
        pollBaseUrl: service.pollBaseUrl,
        maxResponseBytes: 1000,
        timeouts: { readMs: 300, startMs: 300 },
        retry: { limit: 0 },
        poll: { initialDelayMs: 0 },
      });
      const error = await lastValueFrom(client.run("echo", {}, { wait: false })).then(
        () => undefined,
        (caught: unknown) => caught
      );
      return { error, baseUrl: service.baseUrl };
    } finally {
      await service.close();
    }
  }

  const failures: Array<[string, ScriptedReply, new (...args: never[]) => Error]> = [
    ["HTTP 500", { status: 500, body: { message: "boom" } }, SpellHttpError],
    ["a body that is not JSON", { body: "<html>" }, SpellProtocolError],
    ["a missing field", { body: { state: 1 } }, SpellProtocolError],
    [
      "a redirect",
      { status: 307, body: "", headers: { location: "http://x/" } },
      SpellProtocolError,
    ],
    ["no answer", "hang", SpellTimeoutError],
    ["a dropped connection", "drop", SpellNetworkError],
    ["a huge answer", { body: { runId: "x".repeat(5000) } }, SpellResponseTooLargeError],
  ];

  /** The error is a `type` naming its request, and holds the key nowhere. */
  function expectNamed(
    error: unknown,
    type: new (...args: never[]) => Error,
    request: { method: string; endpoint: string; url: string }
  ): void {
    expect(error).toBeInstanceOf(type);
    expect(error).toEqual(jasmine.objectContaining(request));
    expect((error as Error).message.startsWith(`${request.method} /spells/${request.endpoint} `))
      .withContext((error as Error).message)
      .toBeTrue();
    expect(JSON.stringify(error) + (error as Error).message + (error as Error).stack).not.toContain(
      KEY
    );
  }

  for (const [what, reply, type] of failures) {
    it(`should say which request met ${what}: method, endpoint and URL, never the key`, async () => {
      const start = await failureOf(reply, "start");
      expectNamed(start.error, type, {
        method: "POST",
        endpoint: "start",
        url: `${start.baseUrl}/spells/start`,
      });
      const poll = await failureOf(reply, "getRun");
      expectNamed(poll.error, type, {
        method: "GET",
        endpoint: "getRun",
        url: `${poll.baseUrl}/spells/getRun?runId=run%201`,
      });
    });
  }

  it("should fail inputs JSON cannot hold with their TypeError, sending nothing", async () => {
    const service = await startScriptedService(() => ({ body: { runId: "run 1" } }));
    try {
      const events: SpellLogEvent[] = [];
      const client = new SpellClient({
        apiKey: KEY,
        baseUrl: service.baseUrl,
        pollBaseUrl: service.pollBaseUrl,
        logger: (event) => events.push(event),
      });
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      for (const inputs of [{ n: 1n }, cycle]) {
        const error = await client.runOutputs("echo", inputs).then(
          () => undefined,
          (caught: unknown) => caught
        );
        expect(error).toBeInstanceOf(TypeError);
        expect(error).not.toBeInstanceOf(SpellNetworkError);
      }
      expect(service.requests).toEqual([]);
      // Nothing left, so nothing is logged as sent (nor as failed after being sent).
      expect(events.map((event) => event.type)).toEqual([]);
    } finally {
      await service.close();
    }
  });
});
