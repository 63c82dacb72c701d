import { startEmulator } from "../../emulator/startEmulator.js";
import type { RunningEmulator } from "../../emulator/startEmulator.js";
import { pollUntilFinished, sleep, spellApi } from "./support/emulatorHttp.js";

describe("emulator TTL", () => {
  let emulator: RunningEmulator;
  let spell: ReturnType<typeof spellApi>;

  beforeEach(async () => {
    emulator = await startEmulator({ timeScale: 1, ttlMs: 300 });
    spell = spellApi(emulator);
  });
  afterEach(() => emulator.close());

  it("should forget a finished run ttlMs after it finished", async () => {
    const started = await spell.start("sleep", { ms: 10 }, false);
    const runId = started.body.runId as string;
    expect((await pollUntilFinished(spell, runId)).body.state).toBe("success");
    await sleep(400);
    expect((await spell.getRun(runId)).status).toBe(404);
  });

  it("should keep a run in progress however old it is", async () => {
    const started = await spell.start("sleep", { ms: 1_000 }, false);
    await sleep(500);
    expect((await spell.getRun(started.body.runId as string)).body.state).toBe("inProgress");
  });

  it("should forget a finished or cancelled group ttlMs after it ended", async () => {
    const finished = await spell.bulkStart("sleep", [{ ms: 5 }]);
    const cancelled = await spell.bulkStart("sleep", [{ ms: 10_000 }]);
    await spell.cancelBulk(cancelled.body.runId as string);
    await sleep(20);
    expect((await spell.getBulkRuns(finished.body.runId as string)).status).toBe(200);
    await sleep(400);
    expect((await spell.getBulkRuns(finished.body.runId as string)).status).toBe(404);
    expect((await spell.getBulkRuns(cancelled.body.runId as string)).status).toBe(404);
    expect((await spell.cancelBulk(cancelled.body.runId as string)).status).toBe(404);
  });
});
