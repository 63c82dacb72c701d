import { startEmulator } from "../../emulator/startEmulator.js";
import { expectErrorShape, pollUntilFinished, spellApi } from "./support/emulatorHttp.js";
import { useEmulator } from "./support/useEmulator.js";

describe("emulator POST /spells/start", () => {
  const fixture = useEmulator();

  it('should answer the outputs in wait mode with wait true and "true"', async () => {
    for (const wait of [true, "true", "TRUE"]) {
      const result = await fixture.spell.start(
        "summarize",
        { text: "Spells run. They are stored." },
        wait
      );
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ outputs: { summary: "Spells run.", words: 5 } });
    }
  });

  it("should hold the connection until the run ends in wait mode", async () => {
    const began = Date.now();
    const result = await fixture.spell.start("sleep", { ms: 5_000 }, true); // 5000 ms × 0.02 = 100 ms
    expect(result.body).toEqual({ outputs: { slept: 5_000 } });
    expect(Date.now() - began).toBeGreaterThanOrEqual(95);
  });

  it('should answer a runId at once with wait false, "false" and no wait at all', async () => {
    for (const wait of [false, "false", undefined]) {
      const began = Date.now();
      const result = await fixture.spell.start("sleep", { ms: 50_000 }, wait); // 1 s
      expect(result.status).toBe(200);
      expect(Object.keys(result.body)).toEqual(["runId"]);
      expect(result.body.runId).toMatch(/^run_\d+_[0-9a-f]+$/);
      expect(Date.now() - began).toBeLessThan(500);
      expect((await fixture.spell.getRun(result.body.runId as string)).body.state).toBe(
        "inProgress"
      );
    }
  });

  it("should end failure and error spells with their state in wait mode", async () => {
    const failed = await fixture.spell.start("always-fails", {}, true);
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual({ state: "failure", outputs: { reason: jasmine.any(String) } });
    const errored = await fixture.spell.start("always-errors", {}, "true");
    expect(errored.body).toEqual({ state: "error", outputs: { error: jasmine.any(String) } });
  });

  it("should end failure and error spells with their state in polling mode", async () => {
    const failed = await fixture.spell.start("always-fails", {}, false);
    const failedRun = await pollUntilFinished(fixture.spell, failed.body.runId as string);
    expect(failedRun.body).toEqual({ state: "failure", outputs: { reason: jasmine.any(String) } });
    const errored = await fixture.spell.start("always-errors", {}, false);
    const erroredRun = await pollUntilFinished(fixture.spell, errored.body.runId as string);
    expect(erroredRun.body).toEqual({ state: "error", outputs: { error: jasmine.any(String) } });
  });

  it("should end a run with a missing input in failure, not reject the request", async () => {
    const result = await fixture.spell.start("translate", { text: "hello" }, true);
    expect(result.body).toEqual({
      state: "failure",
      outputs: { reason: 'Input "language" must be text' },
    });
  });

  it("should run every demo spell deterministically", async () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ["sentiment", { text: "I love this, great work" }, { label: "positive", score: 1 }],
      ["sentiment", { text: "terrible and slow" }, { label: "negative", score: -1 }],
      [
        "extract-emails",
        { text: "Mail ann@example.com, bob@test.org or ann@example.com." },
        { emails: ["ann@example.com", "bob@test.org"], count: 2 },
      ],
      [
        "translate",
        { text: "Hello world", language: "fr" },
        { translation: "Bonjour monde", language: "fr" },
      ],
      ["echo", { b: 2, a: [1], c: { d: null } }, { b: 2, a: [1], c: { d: null } }],
    ];
    for (const [spellId, inputs, outputs] of cases) {
      const result = await fixture.spell.start(spellId, inputs, true);
      expect(result.body).withContext(spellId).toEqual({ outputs });
    }
    const echoed = await fixture.spell.start("echo", { z: 1, a: 2, m: 3 }, true);
    expect(Object.keys(echoed.body.outputs ?? {})).toEqual(["z", "a", "m"]);
  });

  it("should answer 404 for an unknown spell and 400 for bad fields", async () => {
    expectErrorShape(await fixture.spell.start("no-such-spell", {}, false), 404, "spell_not_found");
    expectErrorShape(
      await fixture.spell.post("/spells/start", { inputs: {} }),
      400,
      "missing_spell_id"
    );
    expectErrorShape(
      await fixture.spell.post("/spells/start", { spellId: 7, inputs: {} }),
      400,
      "missing_spell_id"
    );
    for (const inputs of [[], "text", 3, null, undefined]) {
      expectErrorShape(await fixture.spell.start("echo", inputs, false), 400, "invalid_inputs");
    }
    expectErrorShape(await fixture.spell.start("echo", {}, "yes"), 400, "invalid_wait");
    expectErrorShape(await fixture.spell.post("/spells/start", [1, 2]), 400, "invalid_body");
    expect(fixture.emulator.stats.createdByKey['["echo",{}]']).toBeUndefined();
  });

  it("should carry on serving when a wait-mode caller hangs up", async () => {
    const controller = new AbortController();
    const held = fetch(`${fixture.emulator.baseUrl}/spells/start`, {
      method: "POST",
      headers: { ...fixture.spell.auth, "content-type": "application/json" },
      body: JSON.stringify({ spellId: "sleep", wait: true, inputs: { ms: 50_000 } }),
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    controller.abort();
    await expectAsync(held).toBeRejected();
    expect((await fixture.spell.start("echo", { after: "hang-up" }, true)).body).toEqual({
      outputs: { after: "hang-up" },
    });
  });

  it("should answer 504 with the runId when a wait outlasts the wait time-out", async () => {
    const short = await startEmulator({ timeScale: 1, waitTimeoutMs: 50 });
    try {
      const api = spellApi(short);
      const result = await api.start("sleep", { ms: 400 }, true);
      expect(result.status).toBe(504);
      expect(result.body.code).toBe("wait_timeout");
      expect(result.body.statusCode).toBe(504);
      const polled = await api.getRun(result.body.runId as string);
      expect(polled.body.state).toBe("inProgress");
      expect(short.stats.runsCreated).toBe(1);
    } finally {
      await short.close();
    }
  });
});
