import { lastValueFrom } from "rxjs";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import { formatRequestLine } from "../../emulator/installRequestLog.js";
import { SpellClient } from "../../src/index.js";
import { pause, waitUntil } from "../core/support/collect.js";

const KEY = "sk-emulator-log-4b7e";

describe("emulator request log", () => {
  let emulator: RunningEmulator;
  const lines: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({
      timeScale: 0.01,
      apiKey: KEY,
      requestLog: (line) => lines.push(line),
    });
  });

  afterAll(() => emulator.close());

  it("should write one readable line per request: host, method, path, status, duration, run or group id", async () => {
    lines.length = 0;
    const client = new SpellClient({
      apiKey: KEY,
      baseUrl: emulator.baseUrl,
      pollBaseUrl: emulator.pollBaseUrl,
      poll: { initialDelayMs: 5, maxIntervalMs: 20 },
    });
    await lastValueFrom(client.run("echo", { a: 1 }, { wait: false }));
    await lastValueFrom(client.bulk("echo", [{ a: 1 }, { a: 2 }]));
    const unfinished = client.bulk("sleep", [{ ms: 60_000 }]).subscribe();
    await pause(100);
    unfinished.unsubscribe();
    await waitUntil(() => lines.some((line) => line.includes("/spells/cancelBulk")), "the cancel");

    const time = String.raw`\d\d:\d\d:\d\d\.\d{3}`;
    expect(lines[0]).toMatch(
      new RegExp(`^${time} base POST /spells/start 200 \\d+ ms run=run_1_\\w+$`)
    );
    expect(lines).toContain(
      jasmine.stringMatching(
        new RegExp(`^${time} poll GET /spells/getRun\\?runId=run_1_\\w+ 200 \\d+ ms$`)
      )
    );
    expect(lines).toContain(
      jasmine.stringMatching(
        new RegExp(`^${time} base POST /spells/bulkStart 200 \\d+ ms group=bulk_1_\\w+$`)
      )
    );
    expect(lines).toContain(
      jasmine.stringMatching(
        new RegExp(`^${time} base POST /spells/getBulkRuns 200 \\d+ ms group=bulk_1_\\w+$`)
      )
    );
    expect(lines).toContain(
      jasmine.stringMatching(
        new RegExp(`^${time} base POST /spells/cancelBulk 200 \\d+ ms group=bulk_2_\\w+$`)
      )
    );
    expect(lines.join("\n")).not.toContain(KEY);
  });

  it("should log a refused request too, with its status", async () => {
    lines.length = 0;
    await fetch(`${emulator.baseUrl}/spells/start`, {
      method: "POST",
      headers: { authorization: "Bearer wrong-key", "content-type": "application/json" },
      body: "{}",
    });
    await waitUntil(() => lines.length > 0, "the line");
    await pause(50); // room for a second line, had one been written
    expect(lines).toEqual([jasmine.stringMatching(/ base POST \/spells\/start 401 \d+ ms$/)]);
    expect(lines.join("\n")).not.toContain("wrong-key");
  });

  it("formatRequestLine should read time, host, request, status, rounded duration and id", () => {
    expect(
      formatRequestLine({
        at: new Date("2026-01-02T12:00:01.250Z"),
        host: "poll",
        method: "GET",
        url: "/spells/getRun?runId=7",
        status: 200,
        ms: 1.6,
      })
    ).toBe("12:00:01.250 poll GET /spells/getRun?runId=7 200 2 ms");
  });
});
