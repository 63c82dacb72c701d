import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SpellClient } from "../../src/index.js";

/** A service that counts requests open at once and runs "in progress" (started, not yet seen done). */
async function countingService(options: { runMs: number; bulkStartMs: number }) {
  const stats = {
    open: 0,
    peakOpen: 0,
    runsInProgress: 0,
    peakRunsInProgress: 0,
    requests: [] as string[],
  };
  const runEnds = new Map<string, number>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://x");
    const endpoint = url.pathname.split("/").pop() ?? "";
    stats.requests.push(endpoint);
    stats.open++;
    stats.peakOpen = Math.max(stats.peakOpen, stats.open);
    let answered = false;
    const answer = (body: unknown, delayMs = 5) =>
      setTimeout(() => {
        if (answered || response.destroyed) return;
        answered = true;
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      }, delayMs);
    response.on("close", () => stats.open--);
    request.resume();
    request.on("end", () => {
      if (endpoint === "start") {
        const runId = `r${stats.requests.length}`;
        runEnds.set(runId, Date.now() + options.runMs);
        stats.runsInProgress++;
        stats.peakRunsInProgress = Math.max(stats.peakRunsInProgress, stats.runsInProgress);
        answer({ runId });
      } else if (endpoint === "getRun") {
        const runId = url.searchParams.get("runId") ?? "";
        const done = Date.now() >= (runEnds.get(runId) ?? 0);
        if (done && runEnds.delete(runId)) stats.runsInProgress--;
        answer(done ? { state: "success", outputs: { runId } } : { state: "inProgress" });
      } else if (endpoint === "bulkStart") {
        answer({ runId: `g${stats.requests.length}` }, options.bulkStartMs);
      } else {
        answer({ runs: [] });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("SpellClient maxInFlight counts requests, not runs (counting node:http service)", () => {
  it("should keep polling-mode runs going at the service beyond maxInFlight, never more requests at once", async () => {
    const service = await countingService({ runMs: 300, bulkStartMs: 5 });
    try {
      const client = new SpellClient({
        apiKey: "k",
        baseUrl: service.url,
        pollBaseUrl: service.url,
        maxInFlight: 2,
        poll: { initialDelayMs: 50, intervalMs: 50, growth: 1 },
      });
      const outputs = await Promise.all(
        Array.from({ length: 20 }, (_, i) => client.runOutputs("sleep", { i }, { wait: false }))
      );
      expect(outputs.length).toBe(20);
      expect(service.stats.peakOpen).toBeLessThanOrEqual(2);
      // A slot held for a whole run would allow only 2 runs at the service at once.
      expect(service.stats.peakRunsInProgress).toBeGreaterThan(2);
    } finally {
      await service.close();
    }
  });

  it("should free a slot only when its request really ended: unsubscribed bulks never exceed maxInFlight 1", async () => {
    const service = await countingService({ runMs: 0, bulkStartMs: 300 });
    try {
      const client = new SpellClient({
        apiKey: "k",
        baseUrl: service.url,
        pollBaseUrl: service.url,
        maxInFlight: 1,
      });
      for (let i = 0; i < 6; i++) {
        const subscription = client.bulk("echo", [{ i }]).subscribe({ error: () => undefined });
        await new Promise((resolve) => setTimeout(resolve, 20));
        subscription.unsubscribe();
      }
      // Each bulkStart still answers (its group is then cancelled): wait for all of it.
      const deadline = Date.now() + 10_000;
      while (
        Date.now() < deadline &&
        service.stats.requests.filter((endpoint) => endpoint === "cancelBulk").length < 1
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(service.stats.requests).toContain("bulkStart");
      expect(service.stats.peakOpen).toBe(1);
    } finally {
      await service.close();
    }
  });
});
