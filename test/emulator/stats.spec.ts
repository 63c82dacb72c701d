import { startEmulator } from "../../emulator/startEmulator.js";
import type { RunningEmulator } from "../../emulator/startEmulator.js";
import { sleep, spellApi } from "./support/emulatorHttp.js";

describe("emulator stats", () => {
  let emulator: RunningEmulator;
  let spell: ReturnType<typeof spellApi>;

  // A fresh emulator per spec: runs left in flight by one spec must not count in the next.
  beforeEach(async () => {
    emulator = await startEmulator({ timeScale: 1, bulkConcurrency: 2 });
    spell = spellApi(emulator);
  });
  afterEach(() => emulator.close());

  it("should count requests per endpoint, runs created and runs by key", async () => {
    const first = await spell.start("echo", { a: 1 }, false);
    await spell.start("echo", { a: 1 }, false);
    await spell.start("echo", { a: 2 }, false);
    await spell.start("nope", {}, false); // reached the route, created nothing
    await spell.getRun(first.body.runId as string);
    const group = await spell.bulkStart("echo", [{}, {}, {}]);
    await spell.getBulkRuns(group.body.runId as string);
    await spell.getBulkRuns(group.body.runId as string);
    await spell.cancelBulk(group.body.runId as string);
    const stats = emulator.stats;
    expect(stats.requests).toEqual({
      start: 4,
      getRun: 1,
      bulkStart: 1,
      cancelBulk: 1,
      getBulkRuns: 2,
    });
    expect(stats.runsCreated).toBe(3);
    expect(stats.createdByKey).toEqual({ '["echo",{"a":1}]': 2, '["echo",{"a":2}]': 1 });
    expect(stats.bulkGroupsCreated).toBe(1);
    expect(stats.bulkRunsCreated).toBe(3);
    expect(stats.cancelledGroups).toBe(1);
  });

  it("should track runs in flight from the clock, and their peak", async () => {
    // sleep 600 ms each: 5 singles, then a 4-run bulk running 2 at a time (2 waves).
    for (let run = 0; run < 5; run++) await spell.start("sleep", { ms: 600 }, false);
    expect(emulator.stats.singleInFlight).toBe(5);
    expect(emulator.stats.inFlight).toBe(5);
    await spell.bulkStart("sleep", [{ ms: 600 }, { ms: 600 }, { ms: 600 }, { ms: 600 }]);
    expect(emulator.stats.inFlight).toBe(9); // queued bulk runs are inProgress too
    expect(emulator.stats.peakInFlight).toBe(9);
    expect(emulator.stats.peakSingleInFlight).toBe(5);
    await sleep(800); // singles and the first wave (≤ 720 ms) done, second wave (≥ 960 ms) not
    expect(emulator.stats.singleInFlight).toBe(0);
    expect(emulator.stats.inFlight).toBe(2);
    await sleep(800);
    expect(emulator.stats.inFlight).toBe(0);
    expect(emulator.stats.peakInFlight).toBe(9);
    expect(JSON.parse(JSON.stringify(emulator.stats)).inFlight).toBe(0);
  });

  it("should keep peak single in flight at a client's own limit", async () => {
    // A client that never has more than 3 runs going: wait-mode calls, 3 at a time.
    const lanes = Array.from({ length: 3 }, async (_, lane) => {
      for (let call = 0; call < 4; call++) await spell.start("sleep", { ms: 20 + lane }, true);
    });
    await Promise.all(lanes);
    expect(emulator.stats.runsCreated).toBe(12);
    expect(emulator.stats.peakSingleInFlight).toBe(3);
  });

  it("should drop runs from in flight when their group is cancelled", async () => {
    const group = await spell.bulkStart("sleep", [{ ms: 5_000 }, { ms: 5_000 }, { ms: 5_000 }]);
    expect(emulator.stats.inFlight).toBe(3);
    await spell.cancelBulk(group.body.runId as string);
    expect(emulator.stats.inFlight).toBe(0);
  });

  it("should zero counters in place on resetStats", async () => {
    const stats = emulator.stats;
    await spell.start("echo", {}, false);
    emulator.resetStats();
    expect(emulator.stats).toBe(stats);
    expect(stats.runsCreated).toBe(0);
    expect(stats.requests.start).toBe(0);
    expect(stats.createdByKey).toEqual({});
  });
});
