import { checksumOf } from "../../emulator/spellBehaviours.js";
import { expectErrorShape, sleep } from "./support/emulatorHttp.js";
import { useEmulator } from "./support/useEmulator.js";

describe("emulator faults of the command line's model suite", () => {
  const fixture = useEmulator({ timeScale: 0.001 });

  beforeEach(() => {
    fixture.emulator.setFaults({});
    fixture.emulator.expireAll();
    fixture.emulator.resetStats();
  });

  it("should create the runs and then answer the drawn status (a start without its answer)", async () => {
    fixture.emulator.setFaults({ rateAnswerAfterStart: 1, answerAfterStartStatus: 408 });
    const answer = await fixture.spell.bulkStart("echo", [{ a: 1 }, { a: 2 }]);
    expectErrorShape(answer, 408, "injected_after_start");
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(2);
  });

  it("should refuse a declared body above bodyLimitBytes with 413 before it starts anything", async () => {
    fixture.emulator.setFaults({ bodyLimitBytes: 100 });
    const answer = await fixture.spell.bulkStart("echo", [{ text: "x".repeat(200) }]);
    expectErrorShape(answer, 413, "body_too_large");
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(0);
  });

  it("should show unfinished runs in an unknown state, and answers with fewer entries", async () => {
    fixture.emulator.setFaults({ rateUnknownState: 1, rateShortBulkRuns: 1 });
    const started = await fixture.spell.bulkStart("sleep", [{ ms: 600_000 }, { ms: 600_000 }]);
    const runs = await fixture.spell.getBulkRuns(String(started.body.runId));
    expect(runs.body.runs).toEqual([{ state: "queued", outputs: {} }]);
  });

  it("should forget every bulk run on expireAll (404 after)", async () => {
    const started = await fixture.spell.bulkStart("echo", [{ a: 1 }]);
    fixture.emulator.expireAll();
    expectErrorShape(
      await fixture.spell.getBulkRuns(String(started.body.runId)),
      404,
      "group_not_found"
    );
  });

  it("should answer the checksum spell's digest of every input, and fail a row holding !fail", async () => {
    const inputs = [
      { id: "1", text: "=1+1" },
      { id: "2", note: "!fail" },
    ];
    const started = await fixture.spell.bulkStart("checksum", inputs);
    await sleep(50);
    const runs = await fixture.spell.getBulkRuns(String(started.body.runId));
    expect(runs.body.runs).toEqual([
      { state: "success", outputs: { digest: checksumOf(inputs[0]), sample: "=1+1" } },
      { state: "failure", outputs: { reason: 'An input holds "!fail"' } },
    ]);
  });
});
