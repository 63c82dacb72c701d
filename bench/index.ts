/**
 * `npm run bench`: every benchmark, one after the other, each in its own process so one's memory
 * and timers cannot colour another's figures. Each prints its own table, with ratios against a
 * baseline measured in the same run. Arguments after `--` name the ones to run:
 * `npm run bench -- core taskpane`.
 *
 * The functions benchmark measures per-call costs of code that Excel runs as a webpack bundle, so
 * it runs as a bundle too (esbuild, into node_modules/.cache): under tsx, every closure the code
 * creates is wrapped in a `__name()` call (tsx compiles with esbuild's `keepNames`), which the
 * shipped add-in does not do and which costs a filled-down column ~25% more. Its baseline runs
 * in the same bundle. `--tsx` runs it under tsx like the others. `functions` also runs
 * functionsBrowser.ts: the same column in headless Chromium on the add-in's built bundle, the
 * figure that counts (Excel runs the functions in a browser engine, not in Node). `bundleSize`
 * also runs firstRunLoad.ts: what loading the client's core on its first call costs a page in
 * headless Chromium.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";

const all = [
  "core",
  "functions",
  "taskpane",
  "cli",
  "inFlight",
  "bulkFinish",
  "bundleSize",
  "gatewayThroughput",
  "resultStore",
];
/** Benchmarks run right after another one of the same name (npm run bench -- functions). */
const companions: Record<string, string[]> = {
  functions: ["functionsBrowser"],
  bundleSize: ["firstRunLoad"],
};
const bundled = new Set(process.argv.includes("--tsx") ? [] : ["functions"]);
const chosen = process.argv.slice(2).filter((name) => all.includes(name));
let failed = 0;
for (const name of (chosen.length > 0 ? chosen : all).flatMap((each) => [
  each,
  ...(companions[each] ?? []),
])) {
  console.log(`\n### bench/${name}.ts${bundled.has(name) ? " (bundled)" : ""}\n`);
  const result = spawnSync(
    process.execPath,
    bundled.has(name)
      ? ["--expose-gc", bundle(name)]
      : [
          "--import",
          "tsx",
          "--expose-gc",
          // The task pane bench holds a whole sheet (1,048,576 rows) in its mock workbook.
          "--max-old-space-size=8192",
          path.join(__dirname, `${name}.ts`),
        ],
    { stdio: "inherit" }
  );
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);

/** Bundles `bench/<name>.ts` (packages stay imports) and returns the bundle's path. */
function bundle(name: string): string {
  const root = path.join(__dirname, "..");
  const dir = path.join(root, "node_modules", ".cache", "spellrun-bench");
  mkdirSync(dir, { recursive: true });
  // The emulator finds its spells next to its module (import.meta.url): next to the bundle.
  copyFileSync(path.join(root, "emulator", "spells.json"), path.join(dir, "spells.json"));
  const outfile = path.join(dir, `${name}.mjs`);
  buildSync({
    entryPoints: [path.join(__dirname, `${name}.ts`)],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile,
    logLevel: "error",
    // Paths a benchmark builds from its own folder (the emulator's child process script).
    define: { __dirname: JSON.stringify(__dirname) },
  });
  return outfile;
}
