import { lastValueFrom, toArray } from "rxjs";
import { SpellClient, SpellHttpError } from "../../src/index.js";
import { startScriptedService, type ScriptedService } from "./support/scriptedService.js";

describe("SpellClient and runs the poll host shows late, or starts it in polling mode (scripted service)", () => {
  let service: ScriptedService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  const poll = { initialDelayMs: 10, intervalMs: 10, growth: 1 };

  async function clientOf(
    script: Parameters<typeof startScriptedService>[0],
    options: Partial<ConstructorParameters<typeof SpellClient>[0]> = {}
  ): Promise<SpellClient> {
    service = await startScriptedService(script);
    return new SpellClient({
      apiKey: "k",
      baseUrl: service.baseUrl,
      pollBaseUrl: service.pollBaseUrl,
      poll,
      ...options,
    });
  }

  it("should keep polling a just-started run while getRun answers 404 within the grace", async () => {
    let reads = 0;
    const client = await clientOf((request) => {
      if (request.endpoint === "start") return { body: { runId: "r1" } };
      reads++;
      return reads <= 2
        ? { status: 404, body: { message: "no such run" } }
        : { body: { state: "success", outputs: { n: 1 } } };
    });
    await expectAsync(client.runOutputs("echo", {}, { wait: false })).toBeResolvedTo({ n: 1 });
    expect(reads).toBe(3);
  });

  it("should fail on a 404 after the grace, and resumeRun gives none", async () => {
    const client = await clientOf(
      (request) =>
        request.endpoint === "start"
          ? { body: { runId: "r1" } }
          : { status: 404, body: { message: "no such run" } },
      { poll: { ...poll, runVisibilityGraceMs: 0 } }
    );
    const error = await client.runOutputs("echo", {}, { wait: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpellHttpError);
    expect((error as SpellHttpError).status).toBe(404);

    const resumed = await lastValueFrom(
      new SpellClient({
        apiKey: "k",
        baseUrl: service!.baseUrl,
        pollBaseUrl: service!.pollBaseUrl,
        poll,
      }).resumeRun("r1")
    ).catch((e: unknown) => e);
    expect(resumed).toBeInstanceOf(SpellHttpError);
  });

  it("should follow a wait-mode start answered with { runId } by polling that run, emitting one success", async () => {
    let reads = 0;
    const client = await clientOf((request) => {
      if (request.endpoint === "start") return { body: { runId: 77, state: "inProgress" } };
      reads++;
      return reads < 3
        ? { body: { state: "inProgress" } }
        : { body: { state: "success", outputs: { long: true } } };
    });
    const snapshots = await lastValueFrom(client.run("slow", {}).pipe(toArray()));
    expect(snapshots).toEqual([{ runId: 77, state: "success", outputs: { long: true } }]);
    expect(service!.requests.map((request) => request.endpoint)).toEqual([
      "start",
      "getRun",
      "getRun",
      "getRun",
    ]);
    expect(service!.requests[1].query.get("runId")).toBe("77");
  });

  it("should give resumeBulk no grace: a group the service no longer knows fails at the first read", async () => {
    // A resumed group was accepted long before; its 404 means expired, not "not visible yet".
    const client = await clientOf(() => ({ status: 404, body: { message: "no such group" } }));
    const started = Date.now();
    const error = await lastValueFrom(
      client.resumeBulk({ spellId: "echo", groupIds: ["gone"], chunkSizes: [3] }, 3)
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpellHttpError);
    expect((error as SpellHttpError).status).toBe(404);
    expect(service!.requests.map((request) => request.endpoint)).toEqual(["getBulkRuns"]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
