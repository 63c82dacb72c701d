import { lastValueFrom, toArray } from "rxjs";
import { SpellClient } from "../../src/index.js";
import { parseJsonKeepingIds } from "../../src/http/parseJsonKeepingIds.js";
import { startScriptedService, type ScriptedService } from "./support/scriptedService.js";

describe("parseJsonKeepingIds", () => {
  it("should keep integer ids beyond 2^53 as their exact digits and leave the rest to JSON.parse", () => {
    expect(parseJsonKeepingIds('{"runId":9007199254740993}')).toEqual({
      runId: "9007199254740993",
    });
    expect(parseJsonKeepingIds('{ "runId" : 123456789012345678901 , "x": 1}')).toEqual({
      runId: "123456789012345678901",
      x: 1,
    });
    expect(parseJsonKeepingIds('{"runs":[{"id":-9007199254740993}]}')).toEqual({
      runs: [{ id: "-9007199254740993" }],
    });
    // Safe integers stay numbers; other fields and text inside strings are not touched.
    expect(parseJsonKeepingIds('{"runId":1234567890123456}')).toEqual({ runId: 1234567890123456 });
    expect(parseJsonKeepingIds('{"count":9007199254740993}')).toEqual({ count: 9007199254740992 });
    expect(parseJsonKeepingIds('{"text":"\\"runId\\":9007199254740993}"}')).toEqual({
      text: '"runId":9007199254740993}',
    });
    expect(parseJsonKeepingIds('{"runId":9007199254740993.5}')).toEqual({
      runId: 9007199254740994,
    });
  });
});

describe("SpellClient with run ids beyond 2^53 (scripted service)", () => {
  let service: ScriptedService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("should poll a numeric run id above 2^53 exactly as the service wrote it", async () => {
    const big = "9007199254740993";
    service = await startScriptedService((request) =>
      request.endpoint === "start"
        ? { body: `{"runId":${big}}` }
        : { body: { state: "success", outputs: { ok: true } } }
    );
    const client = new SpellClient({
      apiKey: "k",
      baseUrl: service.baseUrl,
      pollBaseUrl: service.pollBaseUrl,
    });
    const snapshots = await lastValueFrom(client.run("echo", {}, { wait: false }).pipe(toArray()));
    expect(snapshots.map((snapshot) => String(snapshot.runId))).toEqual([big, big]);
    const polled = service.requests.filter((request) => request.endpoint === "getRun");
    expect(polled.map((request) => request.query.get("runId"))).toEqual([big]);
  });

  it("should send a numeric bulk id above 2^53 back exactly as groupId", async () => {
    const big = "12345678901234567890";
    service = await startScriptedService((request) =>
      request.endpoint === "bulkStart"
        ? { body: `{"runId":${big}}` }
        : { body: { runs: [{ state: "success", outputs: { ok: true } }] } }
    );
    const client = new SpellClient({
      apiKey: "k",
      baseUrl: service.baseUrl,
      pollBaseUrl: service.pollBaseUrl,
    });
    const rows = await client.bulkOutputs("echo", [{}]);
    expect(rows.map((row) => row.state)).toEqual(["success"]);
    const read = service.requests.find((request) => request.endpoint === "getBulkRuns");
    expect(read?.body).toEqual({ groupId: big });
  });
});
