import { emulatorForBrowser, emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import { spellBulk, spellInputs, spellRun } from "../../functions/functions.js";
import { BULK_PREVIEW_TEXT, streamBulk } from "../../functions/bulkSpell.js";
import { clearRememberedResults } from "../../addin/rememberedResults.js";
import { RUN_PREVIEW_TEXT } from "../../functions/runSpell.js";
import { loadSettings } from "../../addin/settings/loadSettings.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { keyValueStorage } from "../../addin/keyValueStorage.js";
import { resetSharedClient } from "../../addin/sharedClient.js";
import { resetSpendingGuard } from "../../addin/spendingGuard.js";
import {
  cancelableInvocation,
  eventually,
  sleep,
  streamingInvocation,
} from "./support/excelInvocations.js";

/** What a rejected call or an error cell holds. */
interface ExcelErrorShape {
  code: string;
  message: string;
}

async function rejection(call: Promise<unknown>): Promise<ExcelErrorShape> {
  try {
    const value = await call;
    throw new Error(`expected an Excel error, got ${JSON.stringify(value)}`);
  } catch (error) {
    return error as ExcelErrorShape;
  }
}

function isErrorCell(value: unknown): value is ExcelErrorShape {
  return !!value && typeof value === "object" && "code" in value;
}

/** A spill with no "Still running" cell left. */
function isFinalSpill(result: unknown): result is unknown[][] {
  return (
    Array.isArray(result) &&
    !result.flat().some((cell) => isErrorCell(cell) && cell.message.startsWith("Still running"))
  );
}

/** Excel passes a single-cell argument of a matrix parameter as a 1×1 array. */
const cell = (value: unknown) => [[value]];

/** SPELL.RUN as Excel calls it; an omitted `output` is `null`. */
function run(
  spellId: string,
  inputs: unknown[][],
  output: unknown[][] | null = null,
  invocation = cancelableInvocation()
): Promise<unknown[][]> {
  return spellRun(spellId, inputs, output as unknown[][], invocation);
}

describe("custom functions against the emulator (as Excel calls them)", () => {
  beforeEach(async () => {
    await resetSharedClient();
    await clearRememberedResults();
    const { baseUrl, pollBaseUrl, apiKey } = emulatorForBrowser();
    // Each SPELL.RUN its own run here; the batching specs below turn the default back on.
    await saveSettings({
      apiKey,
      baseUrl,
      pollBaseUrl,
      maxInFlight: 8,
      rememberMs: 86_400_000,
      batchRuns: false,
      // These specs are about running, not about the spending guard (spendingGuard.spec.ts).
      runsBeforeAsking: 100_000,
      dailyRunCap: 1_000_000,
    });
    await resetSpendingGuard();
    await resetEmulator();
  });

  describe("SPELL.RUN batched into bulk runs (the default)", () => {
    beforeEach(async () => {
      await saveSettings({ batchRuns: true });
    });

    it("should start 1,000 distinct calls as 1,000 runs in at most ceil(1000/500) bulkStarts", async () => {
      const calls = Array.from({ length: 1000 }, (_, index) =>
        run(
          "echo",
          [
            ["i", "pad"],
            [index, "x"],
          ],
          cell("i")
        )
      );
      const rows = await Promise.all(calls);
      rows.forEach((row, index) => expect(row).toEqual([[index]]));
      const stats = await emulatorStats();
      expect(stats.bulkRunsCreated).toBe(1000);
      expect(stats.requests.bulkStart).toBeLessThanOrEqual(Math.ceil(1000 / 500));
      expect(stats.requests.start).toBe(0);
      expect(stats.requests.getRun).toBe(0);
    }, 60_000);

    it("should share one run between identical cells and give each failed cell its own #N/A", async () => {
      const calls = [1, 2, 1, 2].map((i) => run("echo", cell(JSON.stringify({ i }))));
      const failed = run("always-fails", cell("{}"));
      expect(await Promise.all(calls)).toEqual([[[1]], [[2]], [[1]], [[2]]]);
      expect((await rejection(failed)).code).toBe("#N/A");
      expect((await emulatorStats()).bulkRunsCreated).toBe(3);
    });

    it("should cancel the bulk run with one cancelBulk when Excel cancels every cell and none comes back within 10 s", async () => {
      const invocations = Array.from({ length: 20 }, () => cancelableInvocation());
      const errors = invocations.map((invocation, index) =>
        // Long enough to outlast the 10 s kept for the cells (the emulator runs at 1/50).
        rejection(run("sleep", cell(JSON.stringify({ ms: 2_000_000 + index })), null, invocation))
      );
      await eventually(async () => (await emulatorStats()).requests.getBulkRuns > 0);
      invocations.slice(0, 10).forEach((invocation) => invocation.cancel());
      await sleep(200);
      expect((await emulatorStats()).requests.cancelBulk).toBe(0);
      invocations.slice(10).forEach((invocation) => invocation.cancel());
      for (const error of await Promise.all(errors)) expect(error.code).toBe("#N/A");
      // Every cell gone: the runs are kept 10 s for a cell coming back (Undo then Redo).
      await sleep(200);
      expect((await emulatorStats()).requests.cancelBulk).toBe(0);
      const back = cancelableInvocation();
      const backError = rejection(
        run("sleep", cell(JSON.stringify({ ms: 2_000_000 })), null, back)
      );
      await sleep(200);
      expect((await emulatorStats()).requests.bulkStart).toBe(1);
      back.cancel();
      expect((await backError).code).toBe("#N/A");
      await eventually(async () => (await emulatorStats()).requests.cancelBulk === 1, 15_000);
      await sleep(200);
      const stats = await emulatorStats();
      expect(stats.requests.bulkStart).toBe(1);
      expect(stats.requests.cancelBulk).toBe(1);
      expect(stats.cancelledGroups).toBe(1);
    }, 30_000);

    it("should start nothing in the formula value preview", async () => {
      const preview = cancelableInvocation({ preview: true });
      expect(await run("echo", cell('{"a":1}'), null, preview)).toEqual([[RUN_PREVIEW_TEXT]]);
      await sleep(100);
      const stats = await emulatorStats();
      expect(Object.values(stats.requests).reduce((sum, count) => sum + count, 0)).toBe(0);
    });
  });

  describe("SPELL.RUN inputs", () => {
    it("should accept JSON object text", async () => {
      const row = await run("echo", cell('{"text":"Hello","n":2}'));
      expect(row).toEqual([["Hello", 2]]);
    });

    it("should accept a two-row range (names over values)", async () => {
      expect(
        await run("echo", [
          ["text", "language", "n"],
          ["hello world", "fr", 3],
        ])
      ).toEqual([["hello world", "fr", 3]]);
      const translated = await run(
        "translate",
        [
          ["text", "language", null],
          ["hello", "fr", null],
        ],
        cell("translation")
      );
      expect(translated.length).toBe(1);
      expect(typeof translated[0][0]).toBe("string");
      expect((await emulatorStats()).runsCreated).toBe(2);
    });

    it("should accept a two-column range (names beside values)", async () => {
      const row = await run("echo", [
        ["a", "x"],
        ["b", 7],
        ["c", true],
      ]);
      expect(row).toEqual([["x", 7, true]]);
    });

    it("should accept the result of SPELL.INPUTS", async () => {
      const inputs = spellInputs([cell("text"), cell("Hi"), cell("language"), cell("de")]);
      const row = await run("echo", cell(inputs));
      expect(row).toEqual([["Hi", "de"]]);
    });

    it("should answer bad inputs with #VALUE! saying what is accepted, starting nothing", async () => {
      for (const bad of [
        cell(42),
        cell("not json"),
        [
          ["a", "b", "c"],
          [1, 2, 3],
          [4, 5, 6],
        ],
        cell(""),
      ]) {
        const error = await rejection(run("echo", bad));
        expect(error.code).toBe("#VALUE!");
        expect(error.message).toContain("names over values");
      }
      expect((await emulatorStats()).requests.start).toBe(0);
    });
  });

  /**
   * Cells as Excel really passes them: current builds pass an empty cell as null, some builds as
   * 0 (office-js #4702, #1951); data types arrive as objects (allowCustomDataForDataTypeAny).
   */
  describe("inputs as Excel passes them (empty cells as null and as 0, 2×2 ranges, data types)", () => {
    const requestsMade = async () =>
      Object.values((await emulatorStats()).requests).reduce((sum, count) => sum + count, 0);
    const runsStarted = async () => {
      const stats = await emulatorStats();
      return stats.runsCreated + stats.bulkRunsCreated;
    };

    for (const [build, empty] of [
      ["null", null],
      ["0", 0],
    ] as const) {
      describe(`with empty cells passed as ${build}`, () => {
        it("SPELL.RUN should skip an empty column of a two-row range", async () => {
          expect(
            await run("echo", [
              ["text", empty, "language"],
              ["Hello world", empty, "fr"],
            ])
          ).toEqual([["Hello world", "fr"]]);
        });

        it("SPELL.RUN should skip an empty row of a two-column range", async () => {
          expect(
            await run("echo", [
              ["text", "Hello world"],
              [empty, empty],
              ["language", "fr"],
            ])
          ).toEqual([["Hello world", "fr"]]);
        });

        it('SPELL.RUN should return all outputs for an empty output-names cell, not output "0"', async () => {
          expect(await run("echo", cell('{"a":1,"b":2}'), cell(empty))).toEqual([[1, 2]]);
          expect(await run("echo", cell('{"a":1,"b":2}'), [["b", empty]])).toEqual([[2]]);
        });

        it("SPELL.INPUTS should refuse an empty name cell", () => {
          expect(() => spellInputs([cell(empty), cell("Hello")])).toThrow(
            jasmine.objectContaining({
              code: "#VALUE!",
              message: jasmine.stringContaining("not empty"),
            })
          );
        });

        it("SPELL.BULK should skip an empty table row and an empty column, starting no run for them", async () => {
          const invocation = streamingInvocation();
          spellBulk(
            "echo",
            [
              ["text", empty, "n"],
              ["a", empty, 1],
              [empty, empty, empty],
              ["b", empty, 2],
            ],
            null as unknown as unknown[][],
            invocation
          );
          expect(await invocation.resultWhere(isFinalSpill)).toEqual([
            ["text", "n"],
            ["a", 1],
            ["", ""],
            ["b", 2],
          ]);
          expect(await runsStarted()).toBe(2);
        });
      });
    }

    it("SPELL.INPUTS should send an empty value cell as empty text (null) and as 0 where Excel passes 0", () => {
      expect(JSON.parse(spellInputs([cell("text"), cell(null)]))).toEqual({ text: "" });
      // Indistinguishable from a typed 0 (documented); A2&"" sends text on every build.
      expect(JSON.parse(spellInputs([cell("text"), cell(0)]))).toEqual({ text: 0 });
    });

    it("SPELL.RUN should refuse a 2×2 range that reads two ways, starting nothing", async () => {
      // The README's names-beside-values example once ran as {text:"language","Hello world":"fr"}.
      for (const range of [
        [
          ["text", "Hello world"],
          ["language", "fr"],
        ],
        [
          ["text", "language"],
          ["Hello world", "fr"],
        ],
        [
          ["text", 0],
          ["Hello world", 0],
        ],
      ]) {
        const error = await rejection(run("translate", range));
        expect(error.code).toBe("#VALUE!");
        expect(error.message).toContain(
          "reads both as names over values and as names beside values"
        );
        expect(error.message).toContain("SPELL.INPUTS");
      }
      await sleep(100);
      expect(await requestsMade()).toBe(0);
    });

    it("SPELL.RUN should read a 2×2 range that reads one way only, and one made unambiguous", async () => {
      expect(
        await run("echo", [
          ["text", "Hello world"],
          ["n", 3],
          [null, null],
        ])
      ).toEqual([["Hello world", 3]]);
      expect(
        await run("echo", [
          ["n", 2],
          ["m", 3],
        ])
      ).toEqual([[2, 3]]);
      expect(
        await run("echo", [
          ["text", "n"],
          [7, "x"],
        ])
      ).toEqual([[7, "x"]]);
    });

    it("should send an entity's display text and a formatted number's value", async () => {
      const entity = {
        type: "Entity",
        text: "Contoso Ltd",
        basicValue: "#VALUE!",
        properties: { Ticker: { type: "String", basicValue: "CTSO" } },
      };
      const share = { type: "FormattedNumber", basicValue: 0.25, numberFormat: "0%" };
      expect(
        await run("echo", [
          ["company", "share", null],
          [entity, share, null],
        ])
      ).toEqual([["Contoso Ltd", 0.25]]);
      expect(JSON.parse(spellInputs([cell("company"), cell(entity)]))).toEqual({
        company: "Contoso Ltd",
      });
      const invocation = streamingInvocation();
      await streamBulk("echo", [["company"], [entity]], null, invocation);
      expect(invocation.results[invocation.results.length - 1]).toEqual([
        ["company"],
        ["Contoso Ltd"],
      ]);
    });

    it("should refuse an image (or another value with no text) and start nothing", async () => {
      const image = { type: "WebImage", address: "https://example.com/logo.png" };
      const error = await rejection(
        run("echo", [
          ["logo", "n", null],
          [image, 1, null],
        ])
      );
      expect(error.code).toBe("#VALUE!");
      expect(error.message).toContain("holds an image");
      const invocation = streamingInvocation();
      await streamBulk("echo", [["logo"], ["x"], [image]], null, invocation);
      expect((invocation.results[0] as unknown as ExcelErrorShape).code).toBe("#VALUE!");
      await sleep(100);
      expect(await requestsMade()).toBe(0);
    });
  });

  describe("SPELL.RUN outputs", () => {
    it("should give several outputs in one row, as text or as a range of names", async () => {
      const text = "Spells are stored workflows. They run on demand.";
      expect(
        await run("summarize", cell(JSON.stringify({ text })), cell("words, summary"))
      ).toEqual([[8, "Spells are stored workflows."]]);
      expect(
        await run("summarize", cell(JSON.stringify({ text })), [["summary"], ["words"]])
      ).toEqual([["Spells are stored workflows.", 8]]);
      expect((await emulatorStats()).runsCreated).toBe(1);
    });

    it("should shape values: numbers, booleans, empty for null, JSON for lists", async () => {
      const row = await run(
        "echo",
        cell('{"n":1.5,"b":false,"z":null,"list":[1,"a"],"o":{"k":1}}')
      );
      expect(row).toEqual([[1.5, false, "", '[1,"a"]', '{"k":1}']]);
    });

    it("should answer an unknown output with #N/A naming the outputs that exist", async () => {
      const error = await rejection(run("sentiment", cell('{"text":"I love it"}'), cell("mood")));
      expect(error.code).toBe("#N/A");
      expect(error.message).toContain('"mood"');
      expect(error.message).toContain("label, score");
    });
  });

  describe("SPELL.RUN errors", () => {
    it("should answer a failed run with #N/A and its reason, and not remember it", async () => {
      const first = await rejection(run("always-fails", cell("{}")));
      expect(first.code).toBe("#N/A");
      expect(first.message).toMatch(/^Spell "always-fails" ended in failure: ./);
      const errored = await rejection(run("always-errors", cell("{}")));
      expect(errored.message).toContain('"always-errors" ended in error');
      await rejection(run("always-fails", cell("{}")));
      expect((await emulatorStats()).runsCreated).toBe(3);
    });

    it("should name a spell that does not exist", async () => {
      const error = await rejection(run("no-such-spell", cell('{"a":1}')));
      expect(error.code).toBe("#N/A");
      expect(error.message).toContain('Spell "no-such-spell" was not found');
    });

    it("should say plainly that the service address is not set, and where, starting nothing", async () => {
      // As a production build made without SPELL_BASE_URL starts: the addresses are not set.
      const settings = { ...(await loadSettings()), baseUrl: "", pollBaseUrl: "" };
      await keyValueStorage().setItem("spellrun.settings", JSON.stringify(settings));
      await resetSharedClient();
      const error = await rejection(run("echo", cell('{"a":1}')));
      expect(error.code).toBe("#N/A");
      expect(error.message).toContain("service address is not set (Base URL, Poll base URL)");
      expect(error.message).toContain("Open Spell Run (Home tab)");
      expect(error.message).toContain("Settings");
      const bulk = streamingInvocation();
      await streamBulk("echo", [["a"], [1]], null, bulk);
      expect((bulk.results[0] as unknown as ExcelErrorShape).message).toContain(
        "service address is not set"
      );
      const stats = await emulatorStats();
      expect(Object.values(stats.requests).reduce((sum, count) => sum + count, 0)).toBe(0);
    });

    it("should say where to set a missing key, and explain a rejected one without showing it", async () => {
      await saveSettings({ apiKey: "" });
      const missing = await rejection(run("echo", cell('{"a":1}')));
      expect(missing.code).toBe("#N/A");
      expect(missing.message).toContain("No Spell Run API key");
      await saveSettings({ apiKey: "wrong-key-0123456789" });
      const rejected = await rejection(run("echo", cell('{"a":1}')));
      expect(rejected.message).toContain("rejected the API key (HTTP 401)");
      expect(rejected.message).not.toContain("wrong-key-0123456789");
      expect((await emulatorStats()).runsCreated).toBe(0);
    });
  });

  describe("money", () => {
    it("should start nothing in the formula value preview", async () => {
      const preview = cancelableInvocation({ preview: true });
      expect(await run("echo", cell('{"a":1}'), null, preview)).toEqual([[RUN_PREVIEW_TEXT]]);
      const bulkPreview = streamingInvocation({ preview: true });
      await streamBulk("echo", [["a"], [1], [2]], null, bulkPreview);
      expect(bulkPreview.results).toEqual([[[BULK_PREVIEW_TEXT]]]);
      await sleep(100);
      const stats = await emulatorStats();
      expect(Object.values(stats.requests).reduce((sum, count) => sum + count, 0)).toBe(0);
    });

    it("should show a remembered result in the preview, still starting nothing", async () => {
      await run("echo", cell('{"a":1}'));
      await resetEmulator();
      expect(
        await run("echo", cell('{"a":1}'), null, cancelableInvocation({ preview: true }))
      ).toEqual([[1]]);
      expect((await emulatorStats()).requests.start).toBe(0);
    });

    it("should start exactly 100 runs for 1,000 calls over 100 argument sets, never above the limit", async () => {
      const calls = Array.from({ length: 1000 }, (_, index) =>
        run(
          "echo",
          [
            ["i", "pad"],
            [index % 100, "x"],
          ],
          cell("i")
        )
      );
      const rows = await Promise.all(calls);
      rows.forEach((row, index) => expect(row).toEqual([[index % 100]]));
      const stats = await emulatorStats();
      expect(stats.runsCreated).toBe(100);
      expect(Math.max(...Object.values(stats.createdByKey))).toBe(1);
      expect(stats.peakSingleInFlight).toBeGreaterThan(1);
      expect(stats.peakSingleInFlight).toBeLessThanOrEqual(8);
    }, 60_000);

    it("should start 0 runs after a reload when the results are remembered", async () => {
      const inputs = Array.from({ length: 20 }, (_, index) => cell(JSON.stringify({ i: index })));
      await Promise.all(inputs.map((input) => run("echo", input)));
      expect((await emulatorStats()).runsCreated).toBe(20);
      await resetSharedClient(); // as a reload: new client, store read back from storage
      await resetEmulator();
      const rows = await Promise.all(inputs.map((input) => run("echo", input)));
      expect(rows.map((row) => row[0][0])).toEqual(inputs.map((_, index) => index));
      expect((await emulatorStats()).requests.start).toBe(0);
    });

    it("should run again after the remembered results are cleared", async () => {
      await run("echo", cell('{"a":1}'));
      await run("echo", cell('{"a":1}'));
      expect((await emulatorStats()).runsCreated).toBe(1);
      await clearRememberedResults();
      await run("echo", cell('{"a":1}'));
      expect((await emulatorStats()).runsCreated).toBe(2);
    });

    it("should keep the in-flight limit from the settings", async () => {
      await saveSettings({ maxInFlight: 2 });
      await Promise.all(
        Array.from({ length: 10 }, (_, index) => run("echo", cell(JSON.stringify({ i: index }))))
      );
      const stats = await emulatorStats();
      expect(stats.runsCreated).toBe(10);
      expect(stats.peakSingleInFlight).toBeLessThanOrEqual(2);
    });
  });

  describe("cancel", () => {
    it("should end the call when Excel cancels, and stop polling once the run ended (kept 10 s for the cell)", async () => {
      const invocation = cancelableInvocation();
      const call = run("sleep", cell('{"ms":100000}'), null, invocation);
      await eventually(async () => (await emulatorStats()).singleInFlight === 1);
      invocation.cancel();
      const error = await rejection(call);
      expect(error.code).toBe("#N/A");
      // A single run cannot be cancelled: it is watched while kept, and not after it ended.
      await eventually(async () => (await emulatorStats()).singleInFlight === 0);
      await sleep(300);
      const polls = (await emulatorStats()).requests.getRun;
      await sleep(800);
      expect((await emulatorStats()).requests.getRun).toBe(polls);
    });

    it("should start nothing when Excel cancels before the shared client is ready", async () => {
      await resetSharedClient(); // as on a reload: the first call waits for the settings
      const invocation = cancelableInvocation();
      const call = run("sleep", cell('{"ms":100000}'), null, invocation);
      invocation.cancel(); // in the same turn: the client is not built yet
      const error = await rejection(call);
      expect(error.code).toBe("#N/A");
      expect(error.message).toContain("Cancelled");
      await sleep(300);
      const stats = await emulatorStats();
      expect(stats.requests.start ?? 0).toBe(0);
      expect(stats.runsCreated).toBe(0);
    });

    it("should never start a queued run that Excel cancelled", async () => {
      await saveSettings({ maxInFlight: 1 });
      const first = cancelableInvocation();
      const firstCall = run("sleep", cell('{"ms":10000}'), null, first);
      await eventually(async () => (await emulatorStats()).singleInFlight === 1);
      const queued = cancelableInvocation();
      const queuedCall = run("echo", cell('{"queued":true}'), null, queued);
      await sleep(50);
      queued.cancel();
      await rejection(queuedCall);
      expect(await firstCall).toEqual([[10000]]);
      await sleep(100);
      expect((await emulatorStats()).runsCreated).toBe(1);
    });

    it("should keep a shared run going for the other cells when one cancels", async () => {
      const leaving = cancelableInvocation();
      const leavingCall = run("sleep", cell('{"ms":20000}'), null, leaving);
      const staying = run("sleep", cell('{"ms":20000}'));
      await eventually(async () => (await emulatorStats()).singleInFlight === 1);
      leaving.cancel();
      await rejection(leavingCall);
      expect(await staying).toEqual([[20000]]);
      expect((await emulatorStats()).runsCreated).toBe(1);
    });
  });

  describe("SPELL.INPUTS", () => {
    it("should build the JSON text of the inputs", () => {
      expect(
        JSON.parse(spellInputs([cell("text"), cell("Hello"), cell("list"), [["a"], ["b"]]]))
      ).toEqual({
        text: "Hello",
        list: ["a", "b"],
      });
    });
  });

  describe("SPELL.BULK", () => {
    it("should run the table as one bulk run and spill a header and one row per table row", async () => {
      const invocation = streamingInvocation();
      spellBulk(
        "echo",
        [
          ["text", "n"],
          ["a", 1],
          ["", ""],
          ["b", 2],
          ["a", 1],
        ],
        null as unknown as unknown[][],
        invocation
      );
      const final = await invocation.resultWhere(isFinalSpill);
      expect(final).toEqual([
        ["text", "n"],
        ["a", 1],
        ["", ""],
        ["b", 2],
        ["a", 1],
      ]);
      const stats = await emulatorStats();
      expect(stats.requests.bulkStart).toBe(1);
      expect(stats.bulkRunsCreated).toBe(2); // the empty row and the repeated row start nothing
      expect(stats.runsCreated).toBe(0);
    });

    it("should fill row by row as runs finish, with asked outputs and failed rows as #N/A", async () => {
      const invocation = streamingInvocation();
      // Not ms 0: a row of only zeros counts as empty (some builds pass empty cells as 0).
      spellBulk("sleep", [["ms"], [1], [20000]], cell("slept"), invocation);
      const partial = (await invocation.resultWhere((result) =>
        Array.isArray(result)
      )) as unknown[][];
      expect(partial[0]).toEqual(["slept"]);
      expect(partial[1]).toEqual([1]);
      expect(isErrorCell(partial[2][0]) && partial[2][0].message).toContain(
        "Still running (1 of 2 rows finished)"
      );
      expect(await invocation.resultWhere(isFinalSpill)).toEqual([["slept"], [1], [20000]]);
    });

    it("should show a failed row's reason in its cells", async () => {
      const invocation = streamingInvocation();
      await streamBulk("always-fails", [["x"], [1]], null, invocation);
      const final = invocation.results[invocation.results.length - 1] as unknown[][];
      expect(isErrorCell(final[1][0]) && final[1][0].message).toContain(
        '"always-fails" ended in failure'
      );
    });

    it("should reuse remembered rows instead of running them again", async () => {
      await streamBulk("echo", [["k"], ["one"], ["two"]], null, streamingInvocation());
      await resetEmulator();
      const again = streamingInvocation();
      await streamBulk("echo", [["k"], ["one"], ["two"]], null, again);
      expect(again.results[again.results.length - 1]).toEqual([["k"], ["one"], ["two"]]);
      expect((await emulatorStats()).requests.bulkStart).toBe(0);
    });

    it("should cancel the bulk run with one cancelBulk when Excel cancels", async () => {
      const invocation = streamingInvocation();
      const streaming = streamBulk(
        "sleep",
        [["ms"], [100000], [100001], [100002]],
        null,
        invocation
      );
      await eventually(async () => (await emulatorStats()).inFlight === 3);
      invocation.cancel();
      await streaming;
      await eventually(async () => (await emulatorStats()).requests.cancelBulk >= 1);
      await sleep(300);
      const stats = await emulatorStats();
      expect(stats.requests.cancelBulk).toBe(1);
      expect(stats.cancelledGroups).toBe(1);
      expect(stats.inFlight).toBe(0);
    });

    it("should answer a bad table with #VALUE! and start nothing", async () => {
      const invocation = streamingInvocation();
      await streamBulk("echo", [["only names"]], null, invocation);
      expect((invocation.results[0] as unknown as ExcelErrorShape).code).toBe("#VALUE!");
      expect((await emulatorStats()).requests.bulkStart).toBe(0);
    });
  });
});
