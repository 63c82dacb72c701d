/**
 * Benchmark: a sheet of 10,000 =SPELL.RUN formulas over 1,000 distinct inputs, recalculated at
 * once as Excel does, against the emulator, versus the same 1,000 inputs as one `client.bulk`.
 *
 * Prints runs started, peak runs in flight, requests (the emulator's counters) and wall time, with
 * the ratio to the bulk baseline measured in the same run. The batched sheet, the remembered
 * sheet and the baseline are measured in `--rounds` rounds (5), each over inputs of its own, and
 * their median (with the range) is printed: one cold sample on a shared 2-core machine varies
 * by ±30%. The scenarios: the sheet with SPELL.RUN batching on
 * (the default: the calls of one recalculation go out as bulk runs; goal at most 1.5x the
 * baseline), the same sheet after a reload of the add-in (remembered results), the same sheet with
 * batching off (each distinct call its own run and polls), and the table as one =SPELL.BULK.
 *
 *   npx tsx bench/functions.ts [--time-scale 0.1] [--calls 10000] [--distinct 1000]
 *
 * Node has no Excel: the functions run with their Node fallbacks (in-memory storage in place of
 * OfficeRuntime.storage, plain error objects in place of CustomFunctions.Error).
 */
import { startEmulator } from "../emulator/startEmulator.js";
import { streamBulk } from "../functions/bulkSpell.js";
import { spellRun } from "../functions/functions.js";
import { clearRememberedResults } from "../addin/rememberedResults.js";
import { saveSettings } from "../addin/settings/saveSettings.js";
import { memoryStorage, useKeyValueStorage } from "../addin/keyValueStorage.js";
import { resetSharedClient } from "../addin/sharedClient.js";
import { SpellClient } from "../src/index.js";
import { functionsBenchOptions, median, printScenarioTable } from "./functionsBenchKit.js";

const { timeScale, calls, distinct, rounds, maxInFlight } = functionsBenchOptions({
  calls: 10_000,
});

/**
 * The inputs of formula `index`: a two-row range as Excel passes it, with an empty third column
 * (a 2×2 range of names and values reads two ways, and SPELL.RUN refuses it).
 */
const rangeOf = (index: number, prefix = "Text"): unknown[][] => [
  ["text", "row", null],
  [`${prefix} number ${index % distinct}`, index % distinct, null],
];

/** A cancelable invocation as Excel passes it (never cancelled here). */
const invocation = (): CustomFunctions.CancelableInvocation => ({
  isInValuePreview: false as unknown as string,
});

interface Row {
  scenario: string;
  runs: number;
  peak: number;
  requests: number;
  /** One wall time per round. */
  ms: number[];
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ timeScale });
  const rows: Row[] = [];
  try {
    useKeyValueStorage(memoryStorage());
    await saveSettings({
      apiKey: emulator.apiKey,
      baseUrl: emulator.baseUrl,
      pollBaseUrl: emulator.pollBaseUrl,
      maxInFlight,
      // The benchmark measures running, not the spending guard's question.
      runsBeforeAsking: 100_000,
      dailyRunCap: 1_000_000,
    });

    const measure = async (scenario: string, work: () => Promise<void>) => {
      emulator.resetStats();
      const started = performance.now();
      await work();
      const ms = performance.now() - started;
      const { stats } = emulator;
      const row = rows.find((each) => each.scenario === scenario);
      if (row) {
        row.ms.push(ms);
        return;
      }
      rows.push({
        scenario,
        runs: stats.runsCreated + stats.bulkRunsCreated,
        peak: stats.peakInFlight,
        requests: Object.values(stats.requests).reduce((sum, count) => sum + count, 0),
        ms: [ms],
      });
    };

    const sheet = async (prefix = "Text") => {
      const results = await Promise.all(
        Array.from({ length: calls }, (_, index) =>
          spellRun("echo", rangeOf(index, prefix), [["row"]], invocation())
        )
      );
      results.forEach((result, index) => {
        if (result[0][0] !== index % distinct)
          throw new Error(`formula ${index} got ${String(result[0][0])}`);
      });
    };

    const baseline = (round: number) => async () => {
      const client = new SpellClient({
        apiKey: emulator.apiKey,
        baseUrl: emulator.baseUrl,
        pollBaseUrl: emulator.pollBaseUrl,
        maxInFlight,
      });
      const inputsList = Array.from({ length: distinct }, (_, index) => ({
        text: `Bulk ${round} number ${index}`,
        row: index,
      }));
      const runs = await client.bulkOutputs("echo", inputsList);
      if (runs.some((run) => run.state !== "success"))
        throw new Error("a bulk run did not succeed");
    };

    // Not measured: the same sheet over other inputs, so that no row pays for loading and
    // compiling the code paths (the baseline runs later, on warm code, too).
    await sheet("Warm-up");
    await baseline(-1)();
    for (let round = 0; round < rounds; round++) {
      const prefix = `Round ${round}`;
      await measure(`${calls} x SPELL.RUN (${distinct} distinct), batched`, () => sheet(prefix));
      await measure(`same sheet after a reload (remembered)`, async () => {
        await resetSharedClient();
        await sheet(prefix);
      });
      await measure(`${distinct} inputs as one client.bulk (baseline)`, baseline(round));
    }

    await clearRememberedResults();
    await saveSettings({ batchRuns: false });
    await resetSharedClient();
    await measure(`${calls} x SPELL.RUN (${distinct} distinct), not batched`, () => sheet());

    await measure(`${distinct}-row table as one SPELL.BULK (fresh inputs)`, async () => {
      const table: unknown[][] = [["text", "row", "bulk"]];
      for (let index = 0; index < distinct; index++)
        table.push([`Text number ${index}`, index, true]);
      const results: unknown[] = [];
      await streamBulk("echo", table, [["row"]], {
        isInValuePreview: false as unknown as string,
        setResult: (value) => void results.push(value),
      });
      const final = results[results.length - 1] as unknown[][];
      if (!Array.isArray(final) || final[distinct][0] !== distinct - 1)
        throw new Error("SPELL.BULK did not finish");
    });
  } finally {
    await emulator.close();
  }

  const baseline = median(
    rows.find((row) => row.scenario.includes("(baseline)"))?.ms ?? [Number.NaN]
  );
  console.log(
    `\nspellrun custom functions benchmark (emulator timeScale ${timeScale}, maxInFlight ${maxInFlight})\n`
  );
  printScenarioTable(
    [
      { heading: "runs", width: 6 },
      { heading: "peak", width: 6 },
      { heading: "requests", width: 9 },
    ],
    rows.map(({ scenario, runs, peak, requests, ms }) => ({
      scenario,
      counts: [runs, peak, requests],
      ms,
    })),
    baseline,
    // Rows measured once (not in rounds) have nothing to list.
    (row) => row.ms.length > 1
  );
  console.log(
    `\nruns: runs created at the emulator; peak: most runs in progress at once (single + bulk); ` +
      `wall ms: the median of the rounds; vs bulk: that / the client.bulk baseline's median.`
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
