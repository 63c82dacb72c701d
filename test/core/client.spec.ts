import { filter, firstValueFrom, Subject, tap } from "rxjs";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import {
  SpellClient,
  SpellError,
  SpellHttpError,
  SpellNetworkError,
  SpellRunError,
  type BulkResumeToken,
  type SpellClientOptions,
  type SpellLogEvent,
} from "../../src/index.js";
import { collect, pause, totalRequests } from "./support/collect.js";

/** Fast timing for the emulator at timeScale 0.02 (a 10 s spell lasts 200 ms). */
const fast: Partial<SpellClientOptions> = {
  poll: { initialDelayMs: 20, intervalMs: 20, growth: 1.5, maxIntervalMs: 100 },
  retry: { baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 50 },
};

describe("SpellClient against the emulator", () => {
  let emulator: RunningEmulator;
  let client: SpellClient;

  function newClient(options: Partial<SpellClientOptions> = {}): SpellClient {
    const { baseUrl, pollBaseUrl, apiKey } = emulator;
    return new SpellClient({ baseUrl, pollBaseUrl, apiKey, ...fast, ...options });
  }

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
  });

  afterAll(async () => {
    await emulator.close();
  });

  beforeEach(() => {
    emulator.setFaults({});
    emulator.resetStats();
    client = newClient();
  });

  describe("wait mode", () => {
    it("should send one start and emit one success snapshot", async () => {
      const result = await collect(
        client.run("summarize", { text: "one two three" }, { wait: true })
      );
      expect(result.completed).toBeTrue();
      expect(result.values).toEqual([
        { state: "success", outputs: jasmine.objectContaining({ words: 3 }) },
      ]);
      expect(emulator.stats.requests.start).toBe(1);
      expect(emulator.stats.requests.getRun).toBe(0);
    });

    it("should fail with SpellRunError for a spell ending in failure", async () => {
      const result = await collect(client.run("always-fails", {}, { wait: true }));
      expect(result.error).toBeInstanceOf(SpellRunError);
      expect((result.error as SpellRunError).state).toBe("failure");
      expect((result.error as SpellRunError).outputs).toEqual(
        jasmine.objectContaining({ reason: jasmine.any(String) })
      );
    });

    it("should time out with a hint to use polling", async () => {
      const result = await collect(
        newClient({ waitTimeoutMs: 50 }).run("sleep", { ms: 100_000 }, { wait: true })
      );
      expect((result.error as Error).name).toBe("SpellTimeoutError");
      expect((result.error as Error).message).toContain("wait: false");
    });
  });

  describe("poll mode", () => {
    it("should emit inProgress with a string run id, then success", async () => {
      // 400 ms at timeScale 0.02: long enough for a poll to find it in progress under load.
      const result = await collect(client.run("sleep", { ms: 20_000 }, { wait: false }));
      expect(result.completed).toBeTrue();
      expect(result.values.map((s) => s.state)).toEqual(["inProgress", "success"]);
      expect(typeof result.values[0].runId).toBe("string");
      expect(result.values[1]).toEqual({
        runId: result.values[0].runId,
        state: "success",
        outputs: { slept: 20_000 },
      });
      expect(emulator.stats.requests.start).toBe(1);
      expect(emulator.stats.requests.getRun).toBeGreaterThan(1);
    });

    it("should poll numeric run ids", async () => {
      emulator.setFaults({ runIdType: "number" });
      const result = await collect(client.run("echo", { index: 1 }, { wait: false }));
      expect(typeof result.values[0].runId).toBe("number");
      expect(result.values[result.values.length - 1]).toEqual({
        runId: result.values[0].runId,
        state: "success",
        outputs: { index: 1 },
      });
    });

    it("should fail with SpellRunError carrying state, runId and outputs on failure and error", async () => {
      for (const [spell, state] of [
        ["always-fails", "failure"],
        ["always-errors", "error"],
      ]) {
        const result = await collect(client.run(spell, {}, { wait: false }));
        const error = result.error as SpellRunError;
        expect(error).toBeInstanceOf(SpellRunError);
        expect(error.state).toBe(state as "failure");
        expect(error.runId).toBe(result.values[0].runId as string);
        expect(Object.keys(error.outputs).length).toBeGreaterThan(0);
      }
    });

    it("should re-attach to a run with resumeRun", async () => {
      const first = await firstValueFrom(client.run("sleep", { ms: 10_000 }, { wait: false }));
      const resumed = await collect(newClient().resumeRun(first.runId as string));
      expect(resumed.values[resumed.values.length - 1].state).toBe("success");
      expect(emulator.stats.requests.start).toBe(1);
    });

    // Each spec unsubscribes at a moment told by an event, never after a guessed wait: a request
    // already on the wire when the unsubscribe comes reaches the emulator a moment later, and
    // counting it as "sent after" made the spec fail under load.
    it("should send nothing more after unsubscribe between two polls", async () => {
      const log = recordLog();
      const subscription = newClient({ logger: log.logger })
        .run("sleep", { ms: 100_000 }, { wait: false })
        .subscribe();
      // Just after a poll's answer only the timer of the next poll is pending: every request
      // sent so far was answered, so the emulator has counted it.
      await log.next((event) => event.type === "poll");
      subscription.unsubscribe();
      const after = totalRequests(emulator.stats);
      const sentBefore = log.sent();
      await pause(400); // four times the longest poll interval of `fast`
      expect(emulator.stats.requests.getRun).toBeGreaterThan(0);
      expect(totalRequests(emulator.stats)).toBe(after);
      expect(log.sent()).toBe(sentBefore);
    });

    it("should abort the poll in flight on unsubscribe and send nothing more", async () => {
      // The emulator holds every getRun, so the first one is surely in flight when we leave.
      emulator.setFaults({ latencyMs: 5_000, endpoints: ["getRun"] });
      const log = recordLog();
      const subscription = newClient({ logger: log.logger })
        .run("sleep", { ms: 100_000 }, { wait: false })
        .subscribe();
      await log.next((event) => event.type === "request" && event.endpoint === "getRun");
      await waitFor(() => emulator.stats.requests.getRun === 1);
      subscription.unsubscribe();
      await pause(400);
      expect(log.events.map((event) => `${event.type} ${event.endpoint}`)).toEqual([
        "request start",
        "response start",
        "request getRun",
        "aborted getRun",
      ]);
      // The endpoints a run uses, not every request: the emulator is shared with the bulk specs,
      // whose last getBulkRuns or cancelBulk on the wire at their end may arrive during this one
      // under load (seen once: 3 requests counted where this spec sent 2).
      expect(emulator.stats.requests.start).toBe(1);
      expect(emulator.stats.requests.getRun).toBe(1);
    });
  });

  describe("bulk", () => {
    it("should map a bulk of 500 row by row", async () => {
      const inputs = Array.from({ length: 500 }, (_, index) => ({ index }));
      const result = await collect(client.bulk("echo", inputs));
      const last = result.values[result.values.length - 1];
      expect(result.completed).toBeTrue();
      expect(last.done).toBeTrue();
      expect(last.total).toBe(500);
      expect(last.counts).toEqual({
        inProgress: 0,
        success: 500,
        failure: 0,
        error: 0,
        pending: 0,
      });
      expect(last.runs.every((run, index) => run.outputs.index === index)).toBeTrue();
      expect(emulator.stats.requests.bulkStart).toBe(1);
      expect(result.values.slice(0, -1).every((snapshot) => !snapshot.done)).toBeTrue();
    });

    it("should split a long list into chunks invisibly", async () => {
      const inputs = Array.from({ length: 250 }, (_, index) => ({ index }));
      const result = await collect(newClient({ bulkChunkSize: 100 }).bulk("echo", inputs));
      const last = result.values[result.values.length - 1];
      expect(last.groupIds.length).toBe(3);
      expect(last.resume.chunkSizes).toEqual([100, 100, 50]);
      expect(last.runs.map((run) => run.outputs.index)).toEqual(inputs.map((row) => row.index));
      expect(emulator.stats.requests.bulkStart).toBe(3);
      expect(emulator.stats.bulkRunsCreated).toBe(250);
    });

    it("should not be done early when runs appear late (lazy bulk)", async () => {
      emulator.setFaults({ lazyBulk: { groupVisibleAfterMs: 100, runsPerPoll: 20 } });
      const inputs = Array.from({ length: 100 }, (_, index) => ({ index }));
      const result = await collect(client.bulk("echo", inputs));
      const last = result.values[result.values.length - 1];
      expect(result.error).toBeUndefined();
      expect(last.done).toBeTrue();
      expect(last.runs.every((run, index) => run.outputs.index === index)).toBeTrue();
      // runs appeared progressively: some snapshots had a part pending, none of them done
      const partial = result.values.filter((s) => s.counts.pending > 0 && s.counts.pending < 100);
      expect(partial.length).toBeGreaterThan(0);
      expect(partial.every((s) => !s.done)).toBeTrue();
      expect(result.values.filter((s) => s.done).length).toBe(1);
    });

    it("should send exactly one cancelBulk per unfinished group on unsubscribe, then nothing", async () => {
      const inputs = Array.from({ length: 30 }, () => ({ ms: 100_000 }));
      const log = recordLog();
      const bulk$ = newClient({ bulkChunkSize: 10, logger: log.logger }).bulk("sleep", inputs);
      const subscription = bulk$.subscribe();
      await waitFor(() => emulator.stats.requests.getBulkRuns >= 3);
      subscription.unsubscribe();
      // Once the service has answered the third cancel (not after a guessed wait: under load
      // the cancels take longer), everything sent so far has been counted.
      const answeredCancels = () =>
        log.events.filter((event) => event.type === "response" && event.endpoint === "cancelBulk")
          .length;
      while (answeredCancels() < 3) await log.next((event) => event.endpoint === "cancelBulk");
      expect(emulator.stats.requests.cancelBulk).toBe(3);
      expect(emulator.stats.cancelledGroups).toBe(3);
      const after = totalRequests(emulator.stats);
      const sentBefore = log.sent();
      await pause(400);
      expect(totalRequests(emulator.stats)).toBe(after);
      expect(log.sent()).toBe(sentBefore);
    });

    it("should not cancel a bulk that is done", async () => {
      await collect(client.bulk("echo", [{ index: 0 }]));
      await pause(100);
      expect(emulator.stats.requests.cancelBulk).toBe(0);
    });

    it("should re-attach to a bulk with resumeBulk", async () => {
      const inputs = Array.from({ length: 12 }, (_, index) => ({ ms: 20_000 + index }));
      const chunkedClient = newClient({ bulkChunkSize: 5 });
      let token: BulkResumeToken | undefined;
      const original = collect(
        chunkedClient.bulk("sleep", inputs).pipe(
          tap((snapshot) => {
            if (snapshot.groupIds.length === 3) token ??= snapshot.resume;
          })
        )
      );
      await waitFor(() => token !== undefined);
      const resumed = await collect(newClient().resumeBulk(JSON.parse(JSON.stringify(token)), 12));
      const last = resumed.values[resumed.values.length - 1];
      expect(last.done).toBeTrue();
      expect(last.runs.map((run) => run.outputs.slept)).toEqual(inputs.map((row) => row.ms));
      expect(emulator.stats.bulkGroupsCreated).toBe(3);
      await original;
    });
  });

  describe("faults", () => {
    it("should never start a run twice through 429, 503, 500 and dropped connections", async () => {
      emulator.setFaults({
        rate429: 0.15,
        retryAfterSeconds: 1,
        rate503: 0.1,
        rate500OnReads: 0.15,
        dropRate: 0.05,
        seed: 3,
      });
      // A generous retry limit: this spec is about duplicates, not about giving up.
      const patient = newClient({ retry: { ...fast.retry, limit: 10 } });
      const runs = Array.from({ length: 30 }, (_, index) =>
        collect(patient.run("echo", { index }, { wait: index % 2 === 0 }))
      );
      const results = await Promise.all(runs);
      const created = Object.values(emulator.stats.createdByKey);
      expect(created.every((count) => count === 1))
        .withContext(JSON.stringify(emulator.stats.createdByKey))
        .toBeTrue();
      expect(emulator.stats.runsCreated).toBeLessThanOrEqual(30);
      for (const result of results) {
        // A start dropped mid-way is not retried (the run may exist): the only acceptable failure.
        if (!result.completed)
          expect(result.error).withContext(String(result.error)).toBeInstanceOf(SpellNetworkError);
      }
      expect(results.filter((r) => r.completed).length).toBeGreaterThan(15);
      // The faults this spec is about did happen: 500s on reads were retried through.
      expect(emulator.stats.faults["500"] ?? 0).toBeGreaterThan(0);
      expect(Object.values(emulator.stats.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
    });

    it("should retry bulk reads and still map every row", async () => {
      emulator.setFaults({
        rate500OnReads: 0.3,
        rate429: 0.2,
        dropRate: 0.1,
        endpoints: ["getBulkRuns"],
        seed: 5,
      });
      const inputs = Array.from({ length: 50 }, (_, index) => ({ index }));
      const result = await collect(client.bulk("echo", inputs));
      expect(result.error).toBeUndefined();
      expect(result.values[result.values.length - 1].runs.map((r) => r.outputs.index)).toEqual(
        inputs.map((r) => r.index)
      );
      expect(emulator.stats.bulkGroupsCreated).toBe(1);
    });

    it("should retry a start answered 429 or 503, creating the run once", async () => {
      emulator.setFaults({ rate429: 0.5, rate503: 0.4, endpoints: ["start"], seed: 9 });
      const result = await collect(client.run("echo", { index: 42 }, { wait: false }));
      expect(result.completed).toBeTrue();
      expect(emulator.stats.requests.start).toBeGreaterThan(1);
      expect(emulator.stats.runsCreated).toBe(1);
    });

    it("should not retry a start whose connection dropped after the run was created", async () => {
      emulator.setFaults({ dropRate: 1, dropPhase: "after", endpoints: ["start"] });
      const result = await collect(client.run("echo", { index: 7 }, { wait: false }));
      expect(result.error).toBeInstanceOf(SpellNetworkError);
      expect(emulator.stats.requests.start).toBe(1);
      expect(Object.values(emulator.stats.createdByKey)).toEqual([1]);
    });

    it("should retry a start that was refused (nothing listening), and report a network error", async () => {
      const closed = await startEmulator({ timeScale: 0.02 });
      const { baseUrl, pollBaseUrl } = closed;
      await closed.close();
      const refused = new SpellClient({
        baseUrl,
        pollBaseUrl,
        apiKey: "k",
        retry: { limit: 2, baseDelayMs: 5 },
      });
      const result = await collect(refused.run("echo", {}, { wait: true }));
      const error = result.error as SpellNetworkError;
      expect(error).toBeInstanceOf(SpellNetworkError);
      expect(error.connectionRefused).toBeTrue();
    });

    it("should not retry 401, nor 404, and never put the key in an error", async () => {
      const secret = "sk-very-secret-key-123";
      const wrong = newClient({ apiKey: secret });
      const unauthorized = await collect(wrong.run("echo", {}, { wait: false }));
      const error = unauthorized.error as SpellHttpError;
      expect(error).toBeInstanceOf(SpellHttpError);
      expect(error.status).toBe(401);
      expect(error.message).toContain("POST /spells/start");
      expect(emulator.stats.requests.start).toBe(1);
      expect(
        JSON.stringify({ ...error, message: error.message, stack: error.stack })
      ).not.toContain(secret);

      const missing = await collect(client.resumeRun("no-such-run"));
      expect((missing.error as SpellHttpError).status).toBe(404);
      expect(emulator.stats.requests.getRun).toBe(1);
      expect(
        JSON.stringify({ ...(missing.error as object), m: (missing.error as Error).message })
      ).not.toContain(emulator.apiKey);
    });

    it("should ignore extra fields in every answer", async () => {
      emulator.setFaults({ extraFields: true });
      expect(
        (await collect(client.run("echo", { index: 1 }, { wait: true }))).completed
      ).toBeTrue();
      expect(
        (await collect(client.run("echo", { index: 2 }, { wait: false }))).completed
      ).toBeTrue();
      expect((await collect(client.bulk("echo", [{ index: 3 }]))).completed).toBeTrue();
    });
  });

  describe("options", () => {
    it("should work with cross-fetch where there is no global fetch", async () => {
      const globalFetch = globalThis.fetch;
      try {
        // resolveFetch runs in the constructor: a platform without fetch gets cross-fetch.
        (globalThis as { fetch?: typeof fetch }).fetch = undefined;
        const ponyfilled = newClient();
        globalThis.fetch = globalFetch;
        const result = await collect(ponyfilled.run("echo", { index: 1 }, { wait: false }));
        expect(result.values[result.values.length - 1].outputs).toEqual({ index: 1 });
        const subscription = ponyfilled.bulk("sleep", [{ ms: 100_000 }]).subscribe();
        await waitFor(() => emulator.stats.requests.getBulkRuns >= 1);
        subscription.unsubscribe();
        await waitFor(() => emulator.stats.requests.cancelBulk >= 1);
        await pause(200); // room for a second cancelBulk, had one been sent
        expect(emulator.stats.requests.cancelBulk).toBe(1);
      } finally {
        globalThis.fetch = globalFetch;
      }
    });

    it("should authenticate with x-api-key when asked", async () => {
      const result = await collect(
        newClient({ authHeader: "x-api-key" }).run("echo", { index: 1 })
      );
      expect(result.completed).toBeTrue();
    });

    it("should keep at most maxRunsInProgress runs at the service and queue the rest", async () => {
      // Runs of earlier specs may still be going (single runs cannot be cancelled).
      const alreadyRunning = emulator.stats.singleInFlight;
      const limited = newClient({ maxRunsInProgress: 3 });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          collect(limited.run("sleep", { ms: 5000 + index }, { wait: index % 2 === 0 }))
        )
      );
      expect(results.every((r) => r.completed)).toBeTrue();
      expect(emulator.stats.peakSingleInFlight).toBeLessThanOrEqual(alreadyRunning + 3);
      expect(emulator.stats.peakSingleInFlight).toBeGreaterThan(alreadyRunning + 1);
    });

    it("should share identical runs in flight and reuse a success, never a failure", async () => {
      const reusing = newClient({ reuse: { ttlMs: 60_000 } });
      const [a, b] = await Promise.all([
        collect(reusing.run("echo", { x: 1, y: 2 }, { wait: false })),
        collect(reusing.run("echo", { y: 2, x: 1 }, { wait: false })),
      ]);
      expect(a.values[a.values.length - 1]).toEqual(b.values[b.values.length - 1]);
      expect(emulator.stats.runsCreated).toBe(1);
      const later = await collect(reusing.run("echo", { x: 1, y: 2 }));
      expect(later.values).toEqual([{ state: "success", outputs: { x: 1, y: 2 } }]);
      expect(emulator.stats.requests.start).toBe(1);
      await collect(reusing.run("always-fails", {}));
      await collect(reusing.run("always-fails", {}));
      expect(emulator.stats.runsCreated).toBe(3);
    });

    it("should stop a shared run only when its last subscriber leaves", async () => {
      const reusing = newClient({ reuse: {} });
      const first = reusing.run("sleep", { ms: 100_000 }, { wait: false }).subscribe();
      const second = reusing.run("sleep", { ms: 100_000 }, { wait: false }).subscribe();
      await waitFor(() => emulator.stats.requests.getRun >= 2);
      first.unsubscribe();
      const polledBefore = emulator.stats.requests.getRun;
      // The run goes on for the second subscriber: it is polled again.
      await waitFor(() => emulator.stats.requests.getRun > polledBefore);
      expect(emulator.stats.requests.getRun).toBeGreaterThan(polledBefore);
      second.unsubscribe();
      const after = totalRequests(emulator.stats);
      await pause(300);
      expect(totalRequests(emulator.stats)).toBe(after);
      expect(emulator.stats.runsCreated).toBe(1);
    });

    it("should resolve runOutputs and bulkOutputs, and honour an AbortSignal", async () => {
      expect(await client.runOutputs("echo", { index: 5 }, { wait: false })).toEqual({ index: 5 });
      const rows = await client.bulkOutputs("echo", [{ index: 0 }, { index: 1 }]);
      expect(rows.map((row) => row.outputs.index)).toEqual([0, 1]);
      const controller = new AbortController();
      const pending = client.runOutputs(
        "sleep",
        { ms: 100_000 },
        { wait: false, signal: controller.signal }
      );
      setTimeout(() => controller.abort(new SpellError("stop")), 50);
      await expectAsync(pending).toBeRejectedWithError(SpellError, "stop");
    });
  });
});

/** A client logger that records every event and tells when a wanted one comes. */
function recordLog(): {
  logger: (event: SpellLogEvent) => void;
  events: SpellLogEvent[];
  next(wanted: (event: SpellLogEvent) => boolean): Promise<SpellLogEvent>;
  sent(): number;
} {
  const events: SpellLogEvent[] = [];
  const event$ = new Subject<SpellLogEvent>();
  return {
    logger: (event) => {
      events.push(event);
      event$.next(event);
    },
    events,
    next: (wanted) => firstValueFrom(event$.pipe(filter(wanted))),
    sent: () => events.filter((event) => event.type === "request").length,
  };
}

async function waitFor(condition: () => boolean, timeoutMs = 4000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await pause(10);
  }
}
