import { lastValueFrom } from "rxjs";
import {
  SpellClient,
  SpellPollLimitError,
  SpellRunError,
  type SpellClientOptions,
} from "../../src/index.js";
import { collect } from "./support/collect.js";
import {
  startScriptedService,
  type ScriptedRequest,
  type ScriptedService,
} from "./support/scriptedService.js";

/** Fast polls, so that a limit of a few hundred ms sees several of them. */
const fast: Partial<SpellClientOptions> = {
  poll: { initialDelayMs: 10, intervalMs: 20, growth: 1, maxIntervalMs: 20, maxPollMs: 250 },
  retry: { limit: 0 },
};

describe("SpellClient against a service with states the interface does not list", () => {
  let service: ScriptedService | undefined;
  let runState: (request: ScriptedRequest) => { state: string; outputs?: unknown };
  let bulkRuns: () => unknown[];

  async function clientFor(options: Partial<SpellClientOptions> = {}): Promise<SpellClient> {
    service = await startScriptedService((request) => {
      switch (request.endpoint) {
        case "start":
          return {
            body: (request.body as { wait?: boolean }).wait ? runState(request) : { runId: "r-1" },
          };
        case "getRun":
          return { body: runState(request) };
        case "bulkStart":
          return { body: { runId: "g-1" } };
        case "getBulkRuns":
          return { body: { runs: bulkRuns() } };
        default:
          return { body: {} };
      }
    });
    const { baseUrl, pollBaseUrl } = service;
    return new SpellClient({ baseUrl, pollBaseUrl, apiKey: "k", ...fast, ...options });
  }

  function polls(): number {
    return service?.requests.filter((request) => request.endpoint === "getRun").length ?? 0;
  }

  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it('should finish a run answered "SUCCESS" (states compared without case)', async () => {
    runState = () => ({ state: "SUCCESS", outputs: { answer: 42 } });
    const client = await clientFor();
    const result = await collect(client.run("s", {}, { wait: false }));
    expect(result.completed).toBeTrue();
    expect(result.values.at(-1)).toEqual({
      runId: "r-1",
      state: "success",
      serviceState: "SUCCESS",
      outputs: { answer: 42 },
    });
    expect(polls()).toBe(1);
  });

  it("should read states without case in wait mode too, and end a cancelled one as error", async () => {
    runState = () => ({ state: "Success", outputs: { answer: 1 } });
    const client = await clientFor();
    expect(await lastValueFrom(client.run("s", {}))).toEqual({
      state: "success",
      outputs: { answer: 1 },
    });
    runState = () => ({ state: "CANCELED", outputs: { reason: "quota" } });
    const cancelled = await collect(client.run("s", {}));
    const error = cancelled.error as SpellRunError;
    expect(error).toEqual(jasmine.any(SpellRunError));
    expect([error.state, error.outputs]).toEqual(["error", { reason: "quota" }]);
    expect(error.message).toContain('"CANCELED"');
  });

  it('should end a "cancelled" run as error at once, with its reason', async () => {
    runState = () => ({ state: "cancelled", outputs: { reason: "Cancelled by an admin" } });
    const client = await clientFor();
    const result = await collect(client.run("s", {}, { wait: false }));
    expect(result.error).toEqual(jasmine.any(SpellRunError));
    const error = result.error as SpellRunError;
    expect([error.state, error.runId, error.outputs]).toEqual([
      "error",
      "r-1",
      { reason: "Cancelled by an admin" },
    ]);
    expect(error.message).toContain('"cancelled"');
    expect(polls()).toBe(1);
  });

  it('should show "queued" in the snapshot, give up after maxPollMs with the run id, and let resumeRun continue', async () => {
    let queued = true;
    runState = () =>
      queued ? { state: "queued", outputs: {} } : { state: "success", outputs: { done: true } };
    const client = await clientFor();
    const result = await collect(client.run("s", {}, { wait: false }));
    expect(result.values.map((snapshot) => snapshot.serviceState)).toEqual([undefined, "queued"]);
    expect(result.error).toEqual(jasmine.any(SpellPollLimitError));
    const error = result.error as SpellPollLimitError;
    expect([error.runId, error.lastState, error.limitMs]).toEqual(["r-1", "queued", 250]);
    expect(error.elapsedMs).toBeGreaterThanOrEqual(250);
    expect(polls()).toBeGreaterThan(3);
    // The run is left alone; once the service moves on, resumeRun picks it up.
    queued = false;
    const resumed = await lastValueFrom(client.resumeRun(error.runId as string));
    expect(resumed).toEqual({ runId: "r-1", state: "success", outputs: { done: true } });
  });

  it("should bound a bulk group that never shows all its runs, with the count in the error, without cancelling it", async () => {
    bulkRuns = () => [{ state: "success", outputs: { i: 0 } }];
    const client = await clientFor();
    const result = await collect(client.bulk("s", [{ i: 0 }, { i: 1 }, { i: 2 }]));
    expect(result.values.at(-1)?.counts).toEqual(
      jasmine.objectContaining({ success: 1, pending: 2 })
    );
    expect(result.error).toEqual(jasmine.any(SpellPollLimitError));
    const error = result.error as SpellPollLimitError;
    expect([error.groupId, error.visibleRuns, error.expectedRuns]).toEqual(["g-1", 1, 3]);
    expect(error.message).toContain("1 of 3 runs");
    expect(service?.requests.some((request) => request.endpoint === "cancelBulk")).toBeFalse();
  });
});
