import {
  isRetryAfterNoAnswer,
  SpellClient,
  type SpellClientOptions,
  type SpellLogEvent,
} from "../../src/index.js";
import { collect } from "./support/collect.js";
import { startScriptedService, type ScriptedService } from "./support/scriptedService.js";
import { closedAddress } from "../helpers/closedAddress.js";

const fastRetry: SpellClientOptions["retry"] = { limit: 2, baseDelayMs: 5, maxDelayMs: 10 };

/** The events of one run of `client`, through the client's real logger. */
async function eventsOf(
  options: Pick<SpellClientOptions, "baseUrl" | "pollBaseUrl"> & Partial<SpellClientOptions>,
  wait: boolean
): Promise<SpellLogEvent[]> {
  const events: SpellLogEvent[] = [];
  const client = new SpellClient({
    apiKey: "k",
    retry: fastRetry,
    poll: { initialDelayMs: 0, intervalMs: 5 },
    logger: (event) => events.push(event),
    ...options,
  });
  await collect(client.run("echo", { n: 1 }, { wait }));
  return events;
}

describe("isRetryAfterNoAnswer", () => {
  let service: ScriptedService | undefined;

  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("should be true for each retry of a start whose connection was refused", async () => {
    const address = await closedAddress();
    const events = await eventsOf({ baseUrl: address, pollBaseUrl: address }, true);
    const retries = events.filter((event) => event.type === "retry");
    expect(retries.length).toBe(2);
    expect(retries.every(isRetryAfterNoAnswer)).toBeTrue();
    // The request, its failure and the final failure are not retries.
    expect(events.filter(isRetryAfterNoAnswer).length).toBe(2);
  });

  it("should be true for a read retried after a dropped connection or a time limit", async () => {
    let getRuns = 0;
    service = await startScriptedService((request) => {
      if (request.endpoint === "start") return { body: { runId: "r-1" } };
      getRuns++;
      if (getRuns === 1) return "drop";
      if (getRuns === 2) return "hang";
      return { body: { state: "success", outputs: {} } };
    });
    const events = await eventsOf(
      { ...service, timeouts: { readMs: 100 }, retry: { ...fastRetry, limit: 3 } },
      false
    );
    const retries = events.filter((event) => event.type === "retry");
    expect(retries.map((event) => event.error.split(":")[0])).toEqual([
      "SpellNetworkError",
      "SpellTimeoutError",
    ]);
    expect(retries.every(isRetryAfterNoAnswer)).toBeTrue();
  });

  it("should be false for a retry after an answer (503, 429), and for every other event", async () => {
    let starts = 0;
    service = await startScriptedService(() => {
      starts++;
      if (starts === 1) return { status: 503, body: { error: "unavailable" } };
      if (starts === 2) return { status: 429, body: {}, headers: { "retry-after": "0" } };
      return { body: { outputs: { n: 1 } } };
    });
    const events = await eventsOf({ ...service, retry: { ...fastRetry, limit: 3 } }, true);
    expect(events.filter((event) => event.type === "retry").length).toBe(2);
    expect(events.some(isRetryAfterNoAnswer)).toBeFalse();
  });
});
