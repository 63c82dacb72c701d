import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { lastValueFrom } from "rxjs";
import { SpellClient, SpellTimeoutError } from "../../src/index.js";

/** A service that answers nothing at all (`hang`) or headers then one byte every 50 ms (`trickle`). */
async function hostileService(
  behaviour: "hang" | "trickle"
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push(new URL(request.url ?? "/", "http://x").pathname.split("/").pop() ?? "");
    if (behaviour === "hang") return;
    response.writeHead(200, { "content-type": "application/json" });
    response.write("{");
    const timer = setInterval(() => response.write(" "), 50);
    timers.add(timer);
    response.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("SpellClient request time limits (hostile services)", () => {
  const fast = { timeouts: { readMs: 300, startMs: 300 }, retry: { limit: 2, baseDelayMs: 10 } };

  /** Runs `work` with a client of a hostile service; returns its error and the requests seen. */
  async function against(
    behaviour: "hang" | "trickle",
    work: (client: SpellClient) => Promise<unknown>
  ): Promise<{ error: unknown; requests: string[] }> {
    const service = await hostileService(behaviour);
    try {
      const client = new SpellClient({
        apiKey: "k",
        baseUrl: service.url,
        pollBaseUrl: service.url,
        ...fast,
      });
      const error = await work(client).then(
        () => undefined,
        (caught: unknown) => caught
      );
      return { error, requests: service.requests };
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
});
