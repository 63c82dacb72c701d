import { lastValueFrom } from "rxjs";
import {
  formatLogEvent,
  SpellClient,
  type SpellClientOptions,
  type SpellLogEvent,
} from "../../src/index.js";
import { pause, waitUntil } from "./support/collect.js";
import {
  startScriptedService,
  type ScriptedReply,
  type ScriptedRequest,
} from "./support/scriptedService.js";

const KEY = "sk-live-logger-0123456789";

/** Type, endpoint and the fields a reader of the log looks for, without timings. */
function outline(event: SpellLogEvent): string {
  const parts: string[] = [event.type, event.endpoint];
  if (event.runId !== undefined) parts.push(`run=${String(event.runId)}`);
  if (event.groupId !== undefined) parts.push(`group=${event.groupId}`);
  if ("status" in event && event.status !== undefined) parts.push(`status=${event.status}`);
  if (event.type === "retry") parts.push(`retry=${event.retry}`);
  if (event.type === "poll") {
    parts.push("state" in event ? event.state : `success=${event.counts.success}/${event.runs}`);
  }
  return parts.join(" ");
}

/** Every event holds no key, in any form a logger could write it. */
function expectNoKey(events: SpellLogEvent[]): void {
  const written = [JSON.stringify(events), ...events.map(formatLogEvent)].join("\n");
  expect(written).not.toContain(KEY);
  expect(written).not.toContain(KEY.slice(4));
}

describe("SpellClient logger", () => {
  let getRunCalls = 0;
  const script = (request: ScriptedRequest): ScriptedReply => {
    switch (request.endpoint) {
      case "start":
        return { body: { runId: 7 } };
      case "getRun":
        getRunCalls++;
        // The service echoes the key in an output: bodies in the log are scrubbed.
        return getRunCalls === 1
          ? { body: { state: "inProgress", outputs: {} } }
          : { body: { state: "success", outputs: { echoed: `key ${KEY}` } } };
      case "bulkStart":
        return { body: { runId: "g-1" } };
      case "getBulkRuns":
        return {
          body: {
            runs: [
              { state: "success", outputs: { n: 1 } },
              { state: "success", outputs: { n: 2 } },
            ],
          },
        };
      default:
        return { body: {} };
    }
  };

  async function clientWithLog(
    scriptFor: typeof script,
    options: Partial<SpellClientOptions> = {}
  ): Promise<{ client: SpellClient; events: SpellLogEvent[]; close: () => Promise<void> }> {
    const service = await startScriptedService(scriptFor);
    const events: SpellLogEvent[] = [];
    const client = new SpellClient({
      apiKey: KEY,
      baseUrl: service.baseUrl,
      pollBaseUrl: service.pollBaseUrl,
      poll: { initialDelayMs: 5, maxIntervalMs: 5 },
      retry: { baseDelayMs: 5, jitter: 0 },
      logger: (event) => events.push(event),
      ...options,
    });
    return { client, events, close: () => service.close() };
  }

  beforeEach(() => (getRunCalls = 0));

  it("should report a polled run: its start, each poll and its answers, with the run id", async () => {
    const { client, events, close } = await clientWithLog(script);
    try {
      await lastValueFrom(client.run("echo", { text: "hi" }, { wait: false }));
    } finally {
      await close();
    }
    expect(events.map(outline)).toEqual([
      "request start",
      "response start run=7 status=200",
      "request getRun run=7",
      "response getRun run=7 status=200",
      "poll getRun run=7 inProgress",
      "request getRun run=7",
      "response getRun run=7 status=200",
      "poll getRun run=7 success",
    ]);
    const answered = events.find((event) => event.type === "response");
    expect(answered).toEqual(
      jasmine.objectContaining({ method: "POST", durationMs: jasmine.any(Number) })
    );
    // Bodies only when asked.
    expect(events.some((event) => "body" in event)).toBeFalse();
    expectNoKey(events);
  });

  it("should report a bulk: its bulkStart with the group id, its polls with counts, and the cancel of an unsubscribed one", async () => {
    const { client, events, close } = await clientWithLog(script);
    try {
      await lastValueFrom(client.bulk("echo", [{ n: 1 }, { n: 2 }]));
      expect(events.map(outline)).toEqual([
        "request bulkStart",
        "response bulkStart group=g-1 status=200",
        "request getBulkRuns group=g-1",
        "response getBulkRuns group=g-1 status=200",
        "poll getBulkRuns group=g-1 success=2/2",
      ]);

      events.length = 0;
      const subscription = client.bulk("echo", [{ n: 3 }]).subscribe();
      // Left before the group's first poll: the group is cancelled.
      await pause(2);
      subscription.unsubscribe();
      await waitUntil(
        () =>
          events.some(
            (event) => event.type === "response" && outline(event).includes("cancelBulk")
          ),
        "the cancelBulk's answer"
      );
      expect(events.map(outline)).toContain("cancel cancelBulk group=g-1");
      expect(events.map(outline)).toContain("response cancelBulk group=g-1 status=200");
      expectNoKey(events);
    } finally {
      await close();
    }
  });

  it("should report a failed attempt and its retry, then the answer", async () => {
    let calls = 0;
    const { client, events, close } = await clientWithLog((request) => {
      if (request.endpoint === "getRun" && ++calls === 1) {
        return { status: 503, body: { message: "busy" }, headers: { "retry-after": "0" } };
      }
      return script(request);
    });
    try {
      await lastValueFrom(client.run("echo", {}, { wait: false }));
    } finally {
      await close();
    }
    const outlines = events.map(outline);
    expect(outlines.slice(0, 5)).toEqual([
      "request start",
      "response start run=7 status=200",
      "request getRun run=7",
      "failed getRun run=7 status=503",
      "retry getRun run=7 retry=1",
    ]);
    const retry = events.find((event) => event.type === "retry");
    expect(retry).toEqual(
      jasmine.objectContaining({
        delayMs: 0,
        error: "SpellHttpError: GET /spells/getRun failed with HTTP 503: busy",
      })
    );
    expect(formatLogEvent(retry as SpellLogEvent)).toBe(
      "retry 1 of GET /spells/getRun, run 7 in 0 ms after SpellHttpError: GET /spells/getRun failed with HTTP 503: busy"
    );
    expectNoKey(events);
  });

  it("should format any body without throwing (a BigInt's digits, a circle noted)", () => {
    const circle: Record<string, unknown> = { a: 1 };
    circle.self = circle;
    const request = (body: unknown): SpellLogEvent =>
      ({
        type: "request",
        endpoint: "start",
        method: "POST",
        url: "https://api.example/spells/start",
        body,
      }) as SpellLogEvent;
    expect(formatLogEvent(request({ inputs: { n: 10n } }))).toContain('body {"inputs":{"n":"10"}}');
    expect(formatLogEvent(request(circle))).toContain("body (not JSON: ");
  });

  it("should log bodies only when asked, scrubbed of the key, and give readable lines", async () => {
    const { client, events, close } = await clientWithLog(script, { logBodies: true });
    try {
      // The key typed into an input by mistake does not reach the log either.
      await lastValueFrom(client.run("echo", { note: KEY }, { wait: false }));
    } finally {
      await close();
    }
    const sent = events.find((event) => event.type === "request" && event.endpoint === "start");
    expect(sent && "body" in sent ? JSON.stringify(sent.body) : "").toContain('"spellId":"echo"');
    const last = events.filter((event) => event.type === "response").pop() as SpellLogEvent;
    expect(JSON.stringify("body" in last ? last.body : undefined)).toContain("echoed");
    expect(events.map(formatLogEvent)).toContain(
      "answered POST /spells/start: HTTP 200 in " +
        `${(events[1] as { durationMs: number }).durationMs} ms, run 7 body {"runId":7}`
    );
    expectNoKey(events);
  });

  it("should ignore a logger that throws (a run never fails because of its log)", async () => {
    const { client, close } = await clientWithLog(script, {
      logger: () => {
        throw new Error("disk full");
      },
    });
    try {
      const last = await lastValueFrom(client.run("echo", {}, { wait: false }));
      expect(last.state).toBe("success");
    } finally {
      await close();
    }
  });
});
