import { lastValueFrom } from "rxjs";
import {
  SpellClient,
  SpellError,
  SpellProtocolError,
  type BulkResumeToken,
} from "../../src/index.js";
import { startScriptedService, type ScriptedService } from "./support/scriptedService.js";

describe("SpellClient argument checks (before any request)", () => {
  let service: ScriptedService;
  let client: SpellClient;
  beforeEach(async () => {
    service = await startScriptedService(() => ({ body: { state: "success", outputs: {} } }));
    client = new SpellClient({
      apiKey: "k",
      baseUrl: service.baseUrl,
      pollBaseUrl: service.pollBaseUrl,
    });
  });
  afterEach(() => service.close());

  const failure = (work: Promise<unknown>) =>
    work.then(
      () => undefined,
      (error: unknown) => error
    );

  it("should refuse resumeRun of undefined, null, {}, an empty or an inexact id with SpellError", async () => {
    for (const runId of [undefined, null, {}, "", "  ", 2 ** 53 + 2, -1, 1.5, "run-\uD800"]) {
      const error = await failure(lastValueFrom(client.resumeRun(runId as unknown as string)));
      expect(error).withContext(String(runId)).toBeInstanceOf(SpellError);
      expect((error as Error).message).toMatch(/^resumeRun: /);
    }
    expect(service.requests).toEqual([]);
  });

  it("should fail with SpellProtocolError, never URIError, on a run id from the service that no URL can hold", async () => {
    const broken = await startScriptedService(() => ({ body: '{"runId":"run-\\ud800"}' }));
    try {
      const error = await failure(
        new SpellClient({
          apiKey: "k",
          baseUrl: broken.baseUrl,
          pollBaseUrl: broken.pollBaseUrl,
        }).runOutputs("echo", {}, { wait: false })
      );
      expect(error).toBeInstanceOf(SpellProtocolError);
      expect((error as Error).message).toContain("lone surrogate");
      expect(broken.requests.map((request) => request.endpoint)).toEqual(["start"]);
    } finally {
      await broken.close();
    }
  });

  it("should refuse resumeBulk tokens with wrong types, negative or absurd sizes before sending anything", async () => {
    const cases: Array<[unknown, unknown]> = [
      [undefined, 1],
      [{ spellId: "echo", groupIds: ["g"], chunkSizes: [-1] }, -1],
      [{ spellId: "echo", groupIds: ["g"], chunkSizes: [1e9] }, 1e9],
      [{ spellId: "echo", groupIds: "g", chunkSizes: [1] }, 1],
      [{ spellId: "", groupIds: ["g"], chunkSizes: [1] }, 1],
      [{ spellId: "echo", groupIds: ["g", "h"], chunkSizes: [1] }, 1],
      [{ spellId: "echo", groupIds: ["g"], chunkSizes: [2] }, 3],
      // A map of rows (bulk with reuse) of the wrong length, out of range, or leaving a run out.
      [{ spellId: "echo", groupIds: ["g"], chunkSizes: [2], rows: [0, 1] }, 3],
      [{ spellId: "echo", groupIds: ["g"], chunkSizes: [2], rows: [0, 2, 1] }, 3],
      [{ spellId: "echo", groupIds: ["g"], chunkSizes: [2], rows: [0, -2, 1] }, 3],
      [{ spellId: "echo", groupIds: ["g"], chunkSizes: [2], rows: [0, 0, -1] }, 3],
      [{ spellId: "echo", groupIds: ["g"], chunkSizes: [2], rows: "0,1,1" }, 3],
      // The intent hook's mark: at least the chunks named, at most all of them.
      [{ spellId: "echo", groupIds: ["g"], chunkSizes: [1, 1], mayHaveSent: 0 }, 2],
      [{ spellId: "echo", groupIds: ["g"], chunkSizes: [1, 1], mayHaveSent: 3 }, 2],
      [{ spellId: "echo", groupIds: ["g"], chunkSizes: [1, 1], mayHaveSent: "1" }, 2],
    ];
    for (const [token, count] of cases) {
      const error = await failure(
        lastValueFrom(client.resumeBulk(token as BulkResumeToken, count as number))
      );
      expect(error).withContext(JSON.stringify(token)).toBeInstanceOf(SpellError);
      expect((error as Error).message).toMatch(/^resumeBulk: /);
    }
    expect(service.requests).toEqual([]);
  });

  it("should refuse a baseUrl with a query string or that is not an http(s) URL", () => {
    for (const baseUrl of [
      "https://host/api?tenant=1",
      "https://host/api#x",
      "host/api",
      "ftp://host",
    ]) {
      expect(() => new SpellClient({ apiKey: "k", baseUrl, pollBaseUrl: "https://poll" }))
        .withContext(baseUrl)
        .toThrowError(SpellError, /baseUrl/);
    }
    expect(
      () =>
        new SpellClient({ apiKey: "k", baseUrl: "https://host/api/", pollBaseUrl: "https://poll" })
    ).not.toThrow();
  });
});

describe("SpellClient construction with impossible limits", () => {
  it("should refuse them with SpellError naming the option (never RangeError)", () => {
    const connection = {
      apiKey: "k",
      baseUrl: "http://127.0.0.1:9",
      pollBaseUrl: "http://127.0.0.1:9",
    };
    for (const [option, settings] of [
      ["maxInFlight", { maxInFlight: 0 }],
      ["maxRunsInProgress", { maxRunsInProgress: -1 }],
      ["bulkChunkSize", { bulkChunkSize: 0 }],
      ["batch.maxSize", { batch: { maxSize: 0 } }],
    ] as const) {
      let error: unknown;
      try {
        new SpellClient({ ...connection, ...settings });
      } catch (caught) {
        error = caught;
      }
      expect(error).withContext(option).toBeInstanceOf(SpellError);
      expect((error as Error).message)
        .withContext(option)
        .toContain(option);
    }
  });
});
