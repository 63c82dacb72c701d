/**
 * Benchmark: a filled-down column of =SPELL.RUN in headless Chromium, on the built functions
 * bundle as Excel loads it (dist/addin/functions.js from `npm run build:addin`, which registers
 * the functions with `CustomFunctions.associate`), against the same inputs as one `client.bulk`
 * of the library bundled for the browser, in the same page, against the emulator (CORS).
 *
 * The page stands in for Excel's shared runtime: `CustomFunctions.associate` keeps the functions,
 * `CustomFunctions.Error` is a plain class, the settings are in the page's localStorage (where
 * the add-in keeps them outside Office), and one recalculation is every call made in one
 * synchronous loop, as Excel hands a batch of invocations over. The sheet and the baseline run
 * in `--rounds` rounds (5), each over inputs of its own, alternating; medians and ranges are
 * printed. Goal: the sheet at most 1.5x the baseline.
 *
 *   npx tsx bench/functionsBrowser.ts [--calls 1000] [--distinct 1000] [--rounds 5] [--time-scale 0.1] [--no-build]
 *
 * `--no-build` uses the dist/addin/functions.js already there. For now, run it that way over a
 * development build (`npm run build:dev`): a production bundle refuses the emulator's
 * http://127.0.0.1 addresses (only a development build accepts http to this computer), so every
 * formula answers #N/A "address is not set" and the bench stops. `--profile <file>` records a
 * CPU profile of the measured sheets (Chrome DevTools format) and prints the functions with the
 * most self time (build with `npm run build:dev` and `--no-build` for readable names). Chromium
 * is `CHROME_BIN` or /usr/bin/chromium (never downloaded).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { buildSync } from "esbuild";
import { chromium } from "playwright-core";
import { startEmulator } from "../emulator/startEmulator.js";
import { functionsBenchOptions, median, printScenarioTable } from "./functionsBenchKit.js";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumFlags } = require("../scripts/browserBuild.cjs") as { chromiumFlags: string[] };

const { timeScale, calls, distinct, rounds, maxInFlight } = functionsBenchOptions({
  calls: 1_000,
});
const profileIndex = process.argv.indexOf("--profile");
const profileFile = profileIndex >= 0 ? process.argv[profileIndex + 1] : undefined;
const root = path.join(__dirname, "..");

/** The add-in's functions bundle, built as it ships unless `--no-build`. */
function functionsBundle(): string {
  const file = path.join(root, "dist", "addin", "functions.js");
  if (!process.argv.includes("--no-build") || !existsSync(file)) {
    const built = spawnSync("npm", ["run", "--silent", "build:addin"], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      // The production build names where the add-in is hosted (https, not this computer: the
      // build refuses localhost); any such address does here.
      env: { SPELLRUN_ADDIN_URL: "https://addin.example.com/", ...process.env },
    });
    if (built.status !== 0) throw new Error("npm run build:addin failed");
  }
  return readFileSync(file, "utf8");
}

/** The library for the browser (the baseline's client), minified like the add-in's bundle. */
function libraryBundle(): string {
  const dir = path.join(root, "node_modules", ".cache", "spellrun-bench");
  mkdirSync(dir, { recursive: true });
  const outfile = path.join(dir, "spellrun.browser.js");
  buildSync({
    entryPoints: [path.join(root, "src", "index.ts")],
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "spellrun",
    minify: true,
    outfile,
    logLevel: "error",
  });
  return readFileSync(outfile, "utf8");
}

/** The page: Excel's part (functions registry, error class, settings), then the two bundles. */
function page(settings: Record<string, unknown>): string {
  return `<!doctype html><meta charset="utf-8"><title>SPELL.RUN bench</title>
<script>
window.registered = {};
window.CustomFunctions = {
  associate: (name, fn) => { window.registered[name] = fn; },
  Error: class Error { constructor(code, message) { this.code = code; this.message = message; } },
  ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A", invalidNumber: "#NUM!", nullReference: "#NULL!", divisionByZero: "#DIV/0!", invalidName: "#NAME?", invalidReference: "#REF!" },
};
localStorage.clear();
localStorage.setItem("spellrun.settings", ${JSON.stringify(JSON.stringify(settings))});
</script>
<script src="/functions.js"></script>
<script src="/spellrun.js"></script>`;
}

async function serve(files: Record<string, string>): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const body = files[request.url ?? ""];
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    const type = request.url === "/" ? "text/html" : "text/javascript";
    response.writeHead(200, { "content-type": `${type}; charset=utf-8` }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

/** What runs in the page: one recalculation of the sheet, or one client.bulk; wall ms. */
interface PageBench {
  sheet(prefix: string, calls: number, distinct: number): Promise<number>;
  baseline(prefix: string, distinct: number, connection: Record<string, unknown>): Promise<number>;
}

/** The part of a DevTools CPU profile (`Profiler.stop`) read here. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  samples?: number[];
  timeDeltas?: number[];
}

async function main(): Promise<void> {
  const functionsJs = functionsBundle();
  const libraryJs = libraryBundle();
  const emulator = await startEmulator({ timeScale });
  const connection = {
    apiKey: emulator.apiKey,
    baseUrl: emulator.baseUrl,
    pollBaseUrl: emulator.pollBaseUrl,
    maxInFlight,
  };
  const server = await serve({
    "/": page({
      ...connection,
      // A build that names no service goes through the add-in's host, which this page is not.
      serviceRoute: "direct",
      // The benchmark measures running, not the spending guard's question (as bench/functions.ts).
      runsBeforeAsking: 100_000,
      dailyRunCap: 1_000_000,
    }),
    "/functions.js": functionsJs,
    "/spellrun.js": libraryJs,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_BIN || "/usr/bin/chromium",
    args: chromiumFlags,
  });
  const sheetMs: number[] = [];
  const bulkMs: number[] = [];
  let sheetRequests = 0;
  let bulkRequests = 0;
  const profiles: CpuProfile[] = [];
  try {
    const tab = await browser.newPage();
    tab.on("pageerror", (error) => console.error("page error:", error.message));
    await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
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
          const started = performance.now();
          // One recalculation: Excel calls every formula of the batch in one go.
          const results = await Promise.all(
            Array.from({ length: count }, (_, index) =>
              win.registered.RUN(
                "echo",
                [
                  ["text", "row", null],
                  [`${prefix} number ${index % distinctCount}`, index % distinctCount, null],
                ],
                [["row"]],
                invocation
              )
            )
          );
          const ms = performance.now() - started;
          results.forEach((result, index) => {
            if (result[0][0] !== index % distinctCount) {
              throw new Error(`formula ${index} got ${JSON.stringify(result)}`);
            }
          });
          return ms;
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
    const run = <T extends unknown[]>(name: keyof PageBench, ...args: T): Promise<number> =>
      tab.evaluate(
        ([method, methodArgs]) =>
          (
            (window as unknown as { bench: Record<string, (...a: unknown[]) => Promise<number>> })
              .bench[method as string] as (...a: unknown[]) => Promise<number>
          )(...(methodArgs as unknown[])),
        [name, args] as const
      );
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
      sheetMs.push(await run("sheet", `Round ${round}`, calls, distinct));
      if (cdp) profiles.push((await cdp.send("Profiler.stop")).profile as CpuProfile);
      sheetRequests = requests();
      emulator.resetStats();
      bulkMs.push(await run("baseline", `Bulk ${round}`, distinct, connection));
      bulkRequests = requests();
    }
  } finally {
    await browser.close();
    server.close();
    await emulator.close();
  }

  const baseline = median(bulkMs);
  console.log(
    `\nspellrun custom functions in headless Chromium, built bundle (emulator timeScale ${timeScale}, maxInFlight ${maxInFlight})\n`
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
  console.log(
    `\nrequests: of the last round, at the emulator; wall ms: median of ${rounds} rounds; ` +
      `goal: at most 1.50x, measured ${ratio.toFixed(2)}x`
  );
}

/** Writes the last profile and prints the 20 functions with the most self time over all. */
function printProfile(profiles: CpuProfile[], file: string): void {
  writeFileSync(file, JSON.stringify(profiles[profiles.length - 1]));
  const selfMs = new Map<string, number>();
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const deltas = profile.timeDeltas ?? [];
    (profile.samples ?? []).forEach((id, index) => {
      const frame = byId.get(id)?.callFrame;
      if (!frame) return;
      const where = `${frame.functionName || "(anonymous)"} ${path.basename(frame.url)}:${frame.lineNumber + 1}`;
      selfMs.set(where, (selfMs.get(where) ?? 0) + (deltas[index + 1] ?? 0) / 1000);
    });
  }
  console.log(`
self time over the ${profiles.length} measured sheets (profile in ${file}):`);
  for (const [where, ms] of [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`${ms.toFixed(1).padStart(9)} ms  ${where}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
