import { SpellClient } from "../../src/index.js";
import { later, startScriptedService } from "./support/scriptedService.js";

/**
 * A scripted service that counts runs "in progress" (started, not yet seen done); it answers
 * after 5 ms (bulkStart after `bulkStartMs`, and not before `holdBulkStart` resolves), so that
 * requests overlap.
 */
async function countingService(options: {
  runMs: number;
  bulkStartMs: number;
  holdBulkStart?: Promise<void>;
}) {
  const runs = { inProgress: 0, peakInProgress: 0 };
  const runEnds = new Map<string, number>();
  let created = 0;
  const service = await startScriptedService((request) => {
    switch (request.endpoint) {
      case "start": {
        const runId = `r${++created}`;
        runEnds.set(runId, Date.now() + options.runMs);
        runs.inProgress++;
        runs.peakInProgress = Math.max(runs.peakInProgress, runs.inProgress);
        return later(5, { body: { runId } });
      }
      case "getRun": {
        const runId = request.query.get("runId") ?? "";
        const done = Date.now() >= (runEnds.get(runId) ?? 0);
        if (done && runEnds.delete(runId)) runs.inProgress--;
        return later(5, {
          body: done ? { state: "success", outputs: { runId } } : { state: "inProgress" },
        });
      }
      case "bulkStart": {
        const runId = `g${++created}`;
        return Promise.resolve(options.holdBulkStart).then(() =>
          later(options.bulkStartMs, { body: { runId } })
        );
      }
      default:
        return later(5, { body: { runs: [] } });
    }
  });
  return { service, runs };
}

describe("SpellClient maxInFlight counts requests, not runs (counting node:http service)", () => {
  it("should keep polling-mode runs going at the service beyond maxInFlight, never more requests at once", async () => {
    const { service, runs } = await countingService({ runMs: 300, bulkStartMs: 5 });
    try {
      const client = new SpellClient({
        apiKey: "k",
        baseUrl: service.baseUrl,
        pollBaseUrl: service.pollBaseUrl,
        maxInFlight: 2,
        poll: { initialDelayMs: 50, intervalMs: 50, growth: 1 },
      });
      const outputs = await Promise.all(
        Array.from({ length: 20 }, (_, i) => client.runOutputs("sleep", { i }, { wait: false }))
      );
      expect(outputs.length).toBe(20);
      expect(service.peakOpen).toBeLessThanOrEqual(2);
      // A slot held for a whole run would allow only 2 runs at the service at once.
      expect(runs.peakInProgress).toBeGreaterThan(2);
    } finally {
      await service.close();
    }
  });

  it("should free a slot only when its request really ended: unsubscribed bulks never exceed maxInFlight 1", async () => {
    // The first bulkStart is held until every bulk has left (not for a guessed 300 ms: under
    // load the six subscriptions took longer, its slot came free and the bulk then subscribed
    // rightly sent its own bulkStart).
    let releaseBulkStart = () => {};
    const holdBulkStart = new Promise<void>((resolve) => (releaseBulkStart = resolve));
    const { service } = await countingService({ runMs: 0, bulkStartMs: 0, holdBulkStart });
    try {
      const client = new SpellClient({
        apiKey: "k",
        baseUrl: service.baseUrl,
        pollBaseUrl: service.pollBaseUrl,
        maxInFlight: 1,
      });
      for (let i = 0; i < 6; i++) {
        const subscription = client.bulk("echo", [{ i }]).subscribe({ error: () => undefined });
        // The first bulk leaves once its bulkStart has reached the service (it holds the slot).
        while (i === 0 && service.requests.length === 0) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
        subscription.unsubscribe();
      }
      releaseBulkStart();
      // Each bulkStart still answers (its group is then cancelled): wait for all of it.
      const deadline = Date.now() + 10_000;
      while (
        Date.now() < deadline &&
        !service.requests.some((request) => request.endpoint === "cancelBulk")
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      // One bulkStart went out and its group was cancelled; the queued ones were never sent.
      expect(service.requests.map((request) => request.endpoint)).toEqual([
        "bulkStart",
        "cancelBulk",
      ]);
      expect(service.peakOpen).toBe(1);
    } finally {
      await service.close();
    }
  });
});
