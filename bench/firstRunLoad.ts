/**
 * What loading the client's core on the first call costs a page: `import { SpellClient } from
 * "spellrun/client"` built as bundleSize.ts builds it (esbuild, ES modules for the browser,
 * minified, code splitting), served by a plain static server on 127.0.0.1 and run in headless
 * Chromium. Each round is a fresh page (no cache) that imports the client, then times `run` to
 * its snapshot twice: the first run loads the core (its chunks, fetched then), the second finds
 * it loaded. The service is an injected `fetch` answering a wait-mode start at once, so the two
 * figures differ only by the core's load. Rounds run without throttling (the page's own host)
 * and with 50 ms more latency per request and 10 Mbit/s (Chrome DevTools' network emulation),
 * medians printed.
 *
 * ```sh
 * npm run bench -- bundleSize      # runs this one after bundleSize.ts
 * npx tsx bench/firstRunLoad.ts [--rounds 7] [--from <checkout of another commit, to compare>]
 * ```
 * Chromium is `CHROME_BIN` or /usr/bin/chromium (never downloaded).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
import { chromium, type Page } from "playwright-core";
import { serveFolder } from "../scripts/serveFolder.js";
import { median } from "./functionsBenchKit.js";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumFlags } = require("../scripts/browserBuild.cjs") as { chromiumFlags: string[] };

const root = path.join(__dirname, "..");
const fromIndex = process.argv.indexOf("--from");
/** Where the client is built from: this checkout, or `--from <dir>` (another commit's, to compare). */
const source = fromIndex >= 0 ? path.resolve(process.argv[fromIndex + 1]) : root;
const outdir = path.join(root, "node_modules", ".cache", "spellrun-first-run");
const roundsIndex = process.argv.indexOf("--rounds");
const rounds = roundsIndex >= 0 ? Number(process.argv[roundsIndex + 1]) : 7;

/** One page's figures, in ms of the page's clock. */
interface PageTimes {
  importMs: number;
  firstRunMs: number;
  secondRunMs: number;
  /** Script files fetched by the page: at the import, then by the first run. */
  filesAtImport: number;
  filesByFirstRun: number;
}

/** A network condition of Chrome DevTools' emulation; undefined: none. */
interface Network {
  name: string;
  latencyMs: number;
  bytesPerSecond: number;
}

function build(): void {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  buildSync({
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2020",
    splitting: true,
    chunkNames: "[name]-[hash]",
    outdir,
    logLevel: "silent",
    stdin: {
      contents: `export { SpellClient } from "./src/client/index.ts";`,
      resolveDir: source,
      loader: "ts",
      sourcefile: "client.ts",
    },
    entryNames: "client",
  });
  writeFileSync(path.join(outdir, "measure.js"), MEASURE_JS);
  writeFileSync(
    path.join(outdir, "index.html"),
    `<!doctype html><meta charset="utf-8"><title>first run</title><p>first run</p>`
  );
}

/**
 * The page's part, as a script file of its own (tsx would wrap the closures of a function handed
 * to `page.evaluate` in a helper the page does not have): imports the client, then times two runs.
 */
const MEASURE_JS = `
const scripts = () =>
  performance.getEntriesByType("resource").filter((entry) => entry.name.endsWith(".js")).length;
export async function measure() {
  const filesBefore = scripts();
  const t0 = performance.now();
  const { SpellClient } = await import("./client.js");
  const importMs = performance.now() - t0;
  const filesAtImport = scripts() - filesBefore;
  const answer = () =>
    Promise.resolve(
      new Response(JSON.stringify({ state: "success", outputs: { ok: true } }), {
        status: 200,
        headers: { "content-type": "application/json" },
      })
    );
  const client = new SpellClient({
    apiKey: "bench-key-0123456789",
    baseUrl: "https://spell.example",
    pollBaseUrl: "https://poll.spell.example",
    fetch: answer,
  });
  const timedRun = () =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      client.run("echo", { text: "hi" }).subscribe({
        next: () => resolve(performance.now() - started),
        error: reject,
      });
    });
  const firstRunMs = await timedRun();
  const filesByFirstRun = scripts() - filesBefore - filesAtImport;
  const secondRunMs = await timedRun();
  return { importMs, firstRunMs, secondRunMs, filesAtImport, filesByFirstRun };
}
`;

async function onePage(page: Page): Promise<PageTimes> {
  return (await page.evaluate(
    `import("./measure.js").then((page) => page.measure())`
  )) as PageTimes;
}

async function main(): Promise<void> {
  build();
  const served = await serveFolder(outdir, 0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_BIN || "/usr/bin/chromium",
    args: chromiumFlags,
  });
  const networks: Array<Network | undefined> = [
    undefined,
    { name: "+50 ms, 10 Mbit/s", latencyMs: 50, bytesPerSecond: 1_250_000 },
  ];
  try {
    console.log(
      `${"network".padEnd(22)}${"import".padStart(10)}${"1st run".padStart(10)}${"2nd run".padStart(10)}${"core load".padStart(12)}${"files".padStart(10)}`
    );
    for (const network of networks) {
      const times: PageTimes[] = [];
      for (let round = 0; round < rounds; round++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
        if (network) {
          await cdp.send("Network.emulateNetworkConditions", {
            offline: false,
            latency: network.latencyMs,
            downloadThroughput: network.bytesPerSecond,
            uploadThroughput: network.bytesPerSecond,
          });
        }
        await page.goto(`${served.origin}/index.html`);
        times.push(await onePage(page));
        await context.close();
      }
      const ms = (pick: (t: PageTimes) => number) =>
        `${median(times.map(pick)).toFixed(1)} ms`.padStart(10);
      const extra = median(times.map((t) => t.firstRunMs - t.secondRunMs));
      const last = times[times.length - 1];
      console.log(
        `${(network?.name ?? "local, no throttling").padEnd(22)}${ms((t) => t.importMs)}${ms((t) => t.firstRunMs)}${ms((t) => t.secondRunMs)}${`${extra.toFixed(1)} ms`.padStart(12)}${`${last.filesAtImport}+${last.filesByFirstRun}`.padStart(10)}`
      );
    }
    console.log(
      `\nmedians of ${rounds} fresh pages; "core load": first run minus second run; ` +
        `"files": script files at the import + fetched by the first run`
    );
  } finally {
    await browser.close();
    await served.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
