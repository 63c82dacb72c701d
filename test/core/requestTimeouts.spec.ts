import { lastValueFrom } from "rxjs";
import { SpellClient, SpellTimeoutError } from "../../src/index.js";
import {
  startScriptedService,
  type ScriptedReply,
  type ScriptedRequest,
} from "./support/scriptedService.js";

describe("SpellClient request time limits (hostile services)", () => {
  const fast = { timeouts: { readMs: 300, startMs: 300 }, retry: { limit: 2, baseDelayMs: 10 } };

  /**
   * Runs `work` with a client of a hostile service (`"hang"` or `"trickle"` to every request, or
   * a script); returns its error and the endpoints of the requests seen.
   */
  async function against(
    behaviour: "hang" | "trickle" | ((request: ScriptedRequest) => ScriptedReply),
    work: (client: SpellClient) => Promise<unknown>
  ): Promise<{ error: unknown; requests: string[] }> {
    const service = await startScriptedService(
      typeof behaviour === "function" ? behaviour : () => behaviour
    );
    try {
      const client = new SpellClient({
        apiKey: "k",
        baseUrl: service.baseUrl,
        pollBaseUrl: service.pollBaseUrl,
        ...fast,
      });
      const error = await work(client).then(
        () => undefined,
        (caught: unknown) => caught
      );
      return { error, requests: service.requests.map((request) => request.endpoint) };
    } finally {
      await service.close();
    }
  }

  it("should fail a polling-mode start that never answers with SpellTimeoutError, sending it once", async () => {
    const { error, requests } = await against("hang", (client) =>
      client.runOutputs("echo", {}, { wait: false })
    );
    expect(error).toBeInstanceOf(SpellTimeoutError);
    expect((error as Error).message).toContain("not sent again");
    expect(requests).toEqual(["start"]);
  });

  it("should fail a bulkStart whose answer trickles in, sending it once", async () => {
    const { error, requests } = await against("trickle", (client) =>
      lastValueFrom(client.bulk("echo", [{ a: 1 }]))
    );
    expect(error).toBeInstanceOf(SpellTimeoutError);
    expect(requests).toEqual(["bulkStart"]);
  });

  it("should retry a read that times out like a network error, then fail with SpellTimeoutError", async () => {
    const { error, requests } = await against("hang", (client) =>
      lastValueFrom(client.resumeRun("run-1"))
    );
    expect(error).toBeInstanceOf(SpellTimeoutError);
    expect(requests).toEqual(["getRun", "getRun", "getRun"]);
  });

  it("should retry a getBulkRuns whose answer trickles in, then fail the bulk with SpellTimeoutError", async () => {
    const { error, requests } = await against(
      (request) => (request.endpoint === "bulkStart" ? { body: { runId: "g-1" } } : "trickle"),
      (client) => lastValueFrom(client.bulk("echo", [{ a: 1 }]))
    );
    expect(error).toBeInstanceOf(SpellTimeoutError);
    expect((error as SpellTimeoutError).endpoint).toBe("getBulkRuns");
    // Three reads (the limit is 2 retries), no cancel: a failed bulk stays resumable.
    expect(requests).toEqual(["bulkStart", "getBulkRuns", "getBulkRuns", "getBulkRuns"]);
  });
});
