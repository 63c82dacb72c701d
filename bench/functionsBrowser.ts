/**
 * Benchmark: a filled-down column of =SPELL.RUN in headless Chromium, on the add-in's functions
 * bundle as users get it (a production build, `npm run build:addin`, which registers the
 * functions with `CustomFunctions.associate`), against the same inputs as one `client.bulk` of
 * the library bundled for the browser, in the same page, against the emulator.
 *
 * The page is served the way the add-in is hosted: by the production add-in server
 * (`addin-server/`, HTTPS on 127.0.0.1 with a throw-away certificate, its headers and
 * Content-Security-Policy), which also forwards `/spell-api` and `/spell-poll` to the emulator.
 * The page calls its own origin ("through the add-in's host", the default of a build that names
 * no service), so the production bundle, which accepts only https:// service addresses, needs no
 * rule loosened. The baseline's client calls the same two paths, so both rows pay the same hop.
 *
 * The page stands in for Excel's shared runtime: `CustomFunctions.associate` keeps the functions,
 * `CustomFunctions.Error` is a plain class, the settings are in the page's localStorage (where
 * the add-in keeps them outside Office), and one recalculation is every call made in one
 * synchronous loop, as Excel hands a batch of invocations over. The sheet and the baseline run
 * in `--rounds` rounds (5), each over inputs of its own, alternating; medians and ranges are
 * printed. Goals, each printed with pass or FAIL:
 *
 * - per-cell add-in time before the first bulkStart ≤ 0.1 ms: the ms from the recalculation's
 *   first call until its first bulkStart is handed to fetch, over the calls made by then (the
 *   page's fetch notes both). A batch closes at 500 rows, so with at least that many distinct
 *   inputs no batch window (50 ms) is in the figure;
 * - the recalculation at most 1.3x the baseline;
 * - functions.js (what Excel loads at start) at most 32 KB gzip -9.
 *
 *   npx tsx bench/functionsBrowser.ts [--calls 1000] [--distinct 1000] [--rounds 5] [--time-scale 0.1] [--no-build] [--timeline]
 *
 * By default it makes its own production build in node_modules/.cache/spellrun-bench/addin
 * (under a minute; dist/addin, which may be a build for your host, is left alone). `--no-build`
 * serves the build already in dist/addin instead, production or development (`npm run
 * build:dev`, for readable names in a profile). `--profile <file>` records a CPU profile of the
 * measured sheets (Chrome DevTools format) and prints the functions with the most self time.
 * `--timeline` prints the last round's requests (sheet, then baseline) with the page's clock.
 * Chromium is `CHROME_BIN` or /usr/bin/chromium (never downloaded).
 */
import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { chromium } from "playwright-core";
import { startEmulator } from "../emulator/startEmulator.js";
import { functionsBenchOptions, median, printScenarioTable } from "./functionsBenchKit.js";
import { addinBuild } from "./addinBuild.js";
import { libraryBundle } from "./libraryBundle.js";
import { printProfile, type CpuProfile } from "./printProfile.js";
import { serveAddinForBench, type BenchFile } from "./serveAddinForBench.js";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumFlags } = require("../scripts/browserBuild.cjs") as { chromiumFlags: string[] };

const { timeScale, calls, distinct, rounds, maxInFlight } = functionsBenchOptions({
  calls: 1_000,
});
const profileIndex = process.argv.indexOf("--profile");
const profileFile = profileIndex >= 0 ? process.argv[profileIndex + 1] : undefined;
const root = path.join(__dirname, "..");
/** Goal: the add-in's own time per SPELL.RUN call before the first bulkStart leaves. */
const PER_CELL_GOAL_MS = 0.1;
/** Goal: the recalculation's wall time over one hand-made bulk of the same inputs. */
const RATIO_GOAL = 1.3;
/** Goal: functions.js, what Excel loads at start, gzip (KB of 1,000 bytes). */
const FUNCTIONS_GZIP_GOAL_BYTES = 32_000;

/**
 * The page's files (under /bench/ of the add-in's origin): the page, Excel's part (functions
 * registry, error class, settings) as a script of its own (the server's policy runs no inline
 * script), then the add-in's functions bundle from the add-in's root and the library.
 */
function benchFiles(
  settings: Record<string, unknown>,
  libraryJs: string
): Record<string, BenchFile> {
  const script = "text/javascript; charset=utf-8";
  return {
    "index.html": {
      type: "text/html; charset=utf-8",
      body: `<!doctype html><meta charset="utf-8"><title>SPELL.RUN bench</title>
<script src="/bench/excel.js"></script>
<script src="/functions.js"></script>
<script src="/bench/spellrun.js"></script>`,
    },
    "excel.js": {
      type: script,
      body: `window.registered = {};
// Every request the page sends, with when it was handed to fetch and how many SPELL.RUN calls
// the recalculation had made by then: the sheet's figure is the add-in's time before its first
// bulkStart leaves. Both rows go through it alike.
window.requests = [];
window.callsMade = 0;
const pageFetch = window.fetch.bind(window);
window.fetch = (input, init) => {
  const url = String(input);
  // Only a bulkStart's body is kept (its rows are counted).
  const body = url.endsWith("/spells/bulkStart") && init ? init.body : undefined;
  window.requests.push({ at: performance.now(), url, body, calls: window.callsMade });
  return pageFetch(input, init);
};
window.CustomFunctions = {
  associate: (name, fn) => { window.registered[name] = fn; },
  Error: class Error { constructor(code, message) { this.code = code; this.message = message; } },
  ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A", invalidNumber: "#NUM!", nullReference: "#NULL!", divisionByZero: "#DIV/0!", invalidName: "#NAME?", invalidReference: "#REF!" },
};
localStorage.clear();
localStorage.setItem("spellrun.settings", ${JSON.stringify(JSON.stringify(settings))});
`,
    },
    "spellrun.js": { type: script, body: libraryJs },
  };
}

/**
 * One recalculation of the sheet: its wall ms, and the add-in's time before the first bulkStart
 * left (ms from the first call, and the rows that bulkStart carried).
 */
interface SheetTimes {
  ms: number;
  /** The calls themselves (the synchronous loop), of it. */
  callsMs: number;
  firstBulkStartMs: number;
  /** The SPELL.RUN calls made when it left. */
  firstBulkStartCalls: number;
  firstBulkStartRows: number;
}

/** What runs in the page: one recalculation of the sheet, or one client.bulk; wall ms. */
interface PageBench {
  sheet(prefix: string, calls: number, distinct: number): Promise<SheetTimes>;
  baseline(prefix: string, distinct: number, connection: Record<string, unknown>): Promise<number>;
}

async function main(): Promise<void> {
  const addinDir = addinBuild(root);
  const libraryJs = libraryBundle(root);
  const emulator = await startEmulator({ timeScale });
  const host = await serveAddinForBench({
    addinDir,
    serviceBaseUrl: emulator.baseUrl,
    servicePollBaseUrl: emulator.pollBaseUrl,
    benchFiles: benchFiles(
      {
        apiKey: emulator.apiKey,
        // What a build naming no service starts with; said here so that a --no-build build made
        // with service addresses (whose default is "directly") goes the same way.
        serviceRoute: "addinHost",
        maxInFlight,
        // The benchmark measures running, not the spending guard's question (as bench/functions.ts).
        runsBeforeAsking: 100_000,
        dailyRunCap: 1_000_000,
      },
      libraryJs
    ),
  });
  // The baseline's client calls the add-in server's forwarding paths too, as the add-in does.
  const connection = {
    apiKey: emulator.apiKey,
    baseUrl: `${host.origin}/spell-api`,
    pollBaseUrl: `${host.origin}/spell-poll`,
    maxInFlight,
  };
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_BIN || "/usr/bin/chromium",
    // The add-in server's certificate is made up on the spot; nothing else is contacted.
    args: [...chromiumFlags, "--ignore-certificate-errors"],
  });
  const sheetMs: number[] = [];
  /** The add-in's ms per SPELL.RUN call made before the first bulkStart left, per round. */
  const perCellMs: number[] = [];
  let firstBulk: SheetTimes | undefined;
  const bulkMs: number[] = [];
  let sheetRequests = 0;
  let bulkRequests = 0;
  const profiles: CpuProfile[] = [];
  try {
    // The page names nothing outside this origin (no office.js), and no request is intercepted:
    // a route would add a round trip to this process to every call measured.
    const tab = await browser.newPage({ ignoreHTTPSErrors: true });
    tab.on("pageerror", (error) => console.error("page error:", error.message));
    await tab.goto(`${host.origin}/bench/index.html`);
    await tab.waitForFunction(
      () => "RUN" in (window as unknown as { registered: object }).registered
    );
    await tab.evaluate(() => {
      type Run = (
        spellId: string,
        inputs: unknown[][],
        output: unknown[][],
        invocation: object
      ) => Promise<unknown[][]>;
      const win = window as unknown as {
        registered: { RUN: Run };
        bench: PageBench;
        requests: Array<{ at: number; url: string; body: unknown; calls: number }>;
        callsMade: number;
        spellrun: {
          SpellClient: new (options: Record<string, unknown>) => {
            bulkOutputs(
              spellId: string,
              inputs: Record<string, unknown>[]
            ): Promise<Array<{ state: string }>>;
          };
        };
      };
      win.bench = {
        async sheet(prefix, count, distinctCount) {
          const invocation = { isInValuePreview: false };
          win.requests.length = 0;
          const firstRequest = 0;
          win.callsMade = 0;
          const started = performance.now();
          // One recalculation: Excel calls every formula of the batch in one go.
          const calls = Array.from({ length: count }, (_, index) => {
            win.callsMade = index + 1;
            return win.registered.RUN(
              "echo",
              [
                ["text", "row", null],
                [`${prefix} number ${index % distinctCount}`, index % distinctCount, null],
              ],
              [["row"]],
              invocation
            );
          });
          const callsMs = performance.now() - started;
          const results = await Promise.all(calls);
          const ms = performance.now() - started;
          const firstBulkStart = win.requests
            .slice(firstRequest)
            .find((request) => request.url.endsWith("/spells/bulkStart"));
          if (!firstBulkStart) throw new Error("the sheet sent no bulkStart");
          results.forEach((result, index) => {
            if (result[0][0] !== index % distinctCount) {
              throw new Error(`formula ${index} got ${JSON.stringify(result)}`);
            }
          });
          return {
            ms,
            callsMs,
            firstBulkStartMs: firstBulkStart.at - started,
            firstBulkStartCalls: firstBulkStart.calls,
            firstBulkStartRows: (JSON.parse(String(firstBulkStart.body)) as { inputs: unknown[] })
              .inputs.length,
          };
        },
        async baseline(prefix, distinctCount, options) {
          const client = new win.spellrun.SpellClient(options);
          const inputs = Array.from({ length: distinctCount }, (_, index) => ({
            text: `${prefix} number ${index}`,
            row: index,
          }));
          const started = performance.now();
          const runs = await client.bulkOutputs("echo", inputs);
          const ms = performance.now() - started;
          if (runs.some((run) => run.state !== "success")) throw new Error("a bulk run failed");
          return ms;
        },
      };
    });
    const run = <K extends keyof PageBench>(
      name: K,
      ...args: Parameters<PageBench[K]>
    ): ReturnType<PageBench[K]> =>
      tab.evaluate(
        ([method, methodArgs]) =>
          (
            (window as unknown as { bench: Record<string, (...a: unknown[]) => Promise<unknown>> })
              .bench[method] as (...a: unknown[]) => Promise<unknown>
          )(...(methodArgs as unknown[])),
        [name, args] as const
      ) as ReturnType<PageBench[K]>;
    const requests = () =>
      Object.values(emulator.stats.requests).reduce((sum, count) => sum + count, 0);

    // Not measured: both once over other inputs, so that neither pays for compiling its code.
    await run("sheet", "Warm-up", calls, distinct);
    await run("baseline", "Warm-up bulk", distinct, connection);
    const cdp = profileFile ? await tab.context().newCDPSession(tab) : undefined;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    }
    for (let round = 0; round < rounds; round++) {
      emulator.resetStats();
      if (cdp) await cdp.send("Profiler.start");
      const sheet = await run("sheet", `Round ${round}`, calls, distinct);
      sheetMs.push(sheet.ms);
      perCellMs.push(sheet.firstBulkStartMs / sheet.firstBulkStartCalls);
      firstBulk = sheet;
      if (cdp) profiles.push((await cdp.send("Profiler.stop")).profile as CpuProfile);
      sheetRequests = requests();
      emulator.resetStats();
      bulkMs.push(await run("baseline", `Bulk ${round}`, distinct, connection));
      bulkRequests = requests();
    }
    if (process.argv.includes("--timeline")) {
      // The last round's requests, sheet then baseline, in ms from the first of each.
      const timeline = await tab.evaluate(() =>
        (window as unknown as { requests: Array<{ at: number; url: string }> }).requests.map(
          (request) => [Math.round(request.at), request.url.replace(/^.*\/spells\//, "")]
        )
      );
      console.log("requests of the last round (ms, endpoint):", JSON.stringify(timeline));
    }
  } finally {
    await browser.close();
    await host.close();
    await emulator.close();
  }

  const baseline = median(bulkMs);
  console.log(
    `\nspellrun custom functions in headless Chromium, ${
      process.argv.includes("--no-build") ? "dist/addin's bundle" : "production bundle"
    } served by addin-server (emulator timeScale ${timeScale}, maxInFlight ${maxInFlight})\n`
  );
  printScenarioTable(
    [{ heading: "requests", width: 9 }],
    [
      {
        scenario: `${calls} x SPELL.RUN (${distinct} distinct), one recalculation`,
        counts: [sheetRequests],
        ms: sheetMs,
      },
      {
        scenario: `${distinct} inputs as one client.bulk (baseline)`,
        counts: [bulkRequests],
        ms: bulkMs,
      },
    ],
    baseline,
    // Both rows are measured in rounds.
    () => true
  );
  if (profileFile && profiles.length > 0) printProfile(profiles, profileFile);
  const ratio = median(sheetMs) / baseline;
  const perCell = median(perCellMs);
  console.log(
    `\nrequests: of the last round, at the emulator; wall ms: median of ${rounds} rounds\n` +
      `per-cell add-in time before the first bulkStart: ${perCell.toFixed(3)} ms ` +
      `(${firstBulk?.firstBulkStartMs.toFixed(0)} ms for the ${firstBulk?.firstBulkStartCalls} calls ` +
      `made when it left with ${firstBulk?.firstBulkStartRows} rows, of which the calls ` +
      `themselves ${firstBulk?.callsMs.toFixed(0)} ms, last round; ` +
      `rounds ${perCellMs.map((ms) => ms.toFixed(3)).join(", ")}; best ` +
      `${Math.min(...perCellMs).toFixed(3)} ms, a round the machine left alone), ` +
      `goal at most ${PER_CELL_GOAL_MS} ms: ${perCell <= PER_CELL_GOAL_MS ? "pass" : "FAIL"}\n` +
      `sheet vs one bulk: ${ratio.toFixed(2)}x, goal at most ${RATIO_GOAL.toFixed(2)}x: ` +
      `${ratio <= RATIO_GOAL ? "pass" : "FAIL"}`
  );
  printBundleSize(addinDir);
}

/** Prints functions.js's size (the bundle Excel loads at start) against its goal. */
function printBundleSize(addinDir: string): void {
  const file = readdirSync(addinDir).find((name) => /^functions.*\.js$/.test(name));
  if (!file) throw new Error(`no functions*.js in ${addinDir}`);
  const bytes = readFileSync(path.join(addinDir, file));
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const lazy = readdirSync(addinDir).filter((name) => /^\d.*\.js$|chunk.*\.js$/.test(name));
  console.log(
    `${file}: ${(bytes.length / 1000).toFixed(1)} KB, ${(gzip / 1000).toFixed(1)} KB gzip -9, ` +
      `goal at most ${FUNCTIONS_GZIP_GOAL_BYTES / 1000} KB gzip: ` +
      `${gzip <= FUNCTIONS_GZIP_GOAL_BYTES ? "pass" : "FAIL"}` +
      (lazy.length > 0 ? ` (loaded later: ${lazy.join(", ")})` : "")
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
