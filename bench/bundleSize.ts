/**
 * What `import { SpellClient }` costs a browser page, beside ky and bare rxjs, in one run with the
 * same settings (esbuild, ES modules for the browser, minified, gzip -9):
 *
 * - **SpellClient, at load**: `import { SpellClient } from "spellrun/client"` (the entry for
 *   browser pages, `src/client/index.ts`): the entry and the chunks it imports statically, what
 *   a page loads before it can build a client: the client, its option checks, the typed errors.
 *   Every call loads the client's core on first use (transport, run slots, single runs:
 *   `runs/clientCore`), and bulk, resumeBulk, reuse, batching, the connection check, the
 *   resumeRun checks and cross-fetch are further chunks, loaded when first used (listed below
 *   it with their sizes);
 * - **SpellClient, at first run**: at load plus everything a first single `run` (wait or polling
 *   mode) fetches, the core and its chunks: what a page has loaded once its first run has
 *   started. firstRunLoad.ts measures how long that load takes in Chromium;
 * - **from spellrun, at load / at first run**: the same from the main entry, `src/index.ts`;
 * - **SpellClient, without lazy parts**: from the main entry without code splitting, every
 *   dynamic `import()` left out of the build: what the code loaded at once needs by itself;
 * - **SpellClient, all in one**: from the main entry without code splitting (every lazy part
 *   inlined);
 * - **SpellClient, at load (webpack 5)**: from the main entry built by webpack (its entry chunk),
 *   which places single modules rather than whole files in chunks: for comparison;
 * - **ky**: `import ky from "ky"`, the fetch client users compare with;
 * - **bare rxjs**: the rxjs a hand-written start-and-poll needs (`defer`, `timer`, `expand`,
 *   `takeWhile`, `retry`, `switchMap`, `map`, `share`).
 *
 * esbuild places whole files in chunks by which entry points can reach them through imports
 * (evanw/esbuild#3704, scripts/firstLoad.ts): from the main entry, the page reaches every file
 * `src/index.ts` exports from (the public operators, the bulk-job engine) and through them every
 * file of rxjs (through rxjs's index), so whatever a lazy part uses of them loads at once. From
 * `spellrun/client` the page reaches the client's own files, which take rxjs from its files
 * (`rxjs/internal/…`), not from its index: that is the difference between the two at load.
 *
 * Then the minified bytes at load by origin (rxjs, tslib, each folder of `src/`), from esbuild's
 * metafile. The goal (issue 25): SpellClient at load ≤ 12 KB gzip with rxjs.
 *
 * ```sh
 * npm run bench -- bundleSize
 * ```
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { buildSync, type BuildOptions } from "esbuild";
import webpack from "webpack";
import { firstLoad, PAGE_BUILD } from "../scripts/firstLoad";

const root = path.join(__dirname, "..");
const outdir = path.join(root, "node_modules", ".cache", "spellrun-bundle-size");
/** KB of 1,000 bytes, as the figures are. */
const GOAL_GZIP_BYTES = 12_000;

interface Size {
  name: string;
  min: number;
  gzip: number;
}

const common: BuildOptions = { ...PAGE_BUILD, outdir, logLevel: "silent" };

function sizeOf(name: string, files: Uint8Array[]): Size {
  const joined = Buffer.concat(files);
  return { name, min: joined.length, gzip: gzipSync(joined, { level: 9 }).length };
}

function single(name: string, contents: string, external: string[] = []): Size {
  const result = buildSync({
    ...common,
    external,
    stdin: { contents, resolveDir: root, loader: "ts" },
  });
  return sizeOf(name, [(result.outputFiles ?? [])[0].contents]);
}

/**
 * The entry and the chunks it imports statically (what loads first), each lazy chunk, and the
 * minified bytes at load by origin (from the metafile).
 */
function split(
  name: string,
  contents: string,
  firstRun: { name: string; part: string }
): {
  atLoad: Size;
  atFirstRun: Size;
  firstRunChunks: { atLoad: number; more: number };
  lazy: Size[];
  atLoadByOrigin: Map<string, number>;
  lazyFiles: string[];
} {
  const load = firstLoad(contents, root, { outdir });
  const outputs = load.metafile.outputs;
  const atLoad = new Set(load.atLoad);
  /** An output and every chunk it imports statically: what loading it fetches. */
  const closure = (from: string, into: Set<string>): Set<string> => {
    if (into.has(from)) return into;
    into.add(from);
    for (const imported of outputs[from].imports) {
      if (imported.kind === "import-statement") closure(imported.path, into);
    }
    return into;
  };
  // The part the first call loads (dynamic import of `firstRun.part`), with its own chunks.
  const part = Object.keys(outputs).find(
    (key) => outputs[key].entryPoint === firstRun.part
  ) as string;
  const atFirstRun = closure(part, new Set(atLoad));
  const contentsOf = (key: string) => load.texts.get(key) as Uint8Array;
  const lazy = Object.keys(outputs)
    .filter((key) => !atLoad.has(key) && !key.endsWith(".map"))
    .map((key) =>
      sizeOf(`  lazy: ${path.basename(key).replace(/-[A-Z0-9]+\.js$/, "")}`, [contentsOf(key)])
    );
  const atLoadByOrigin = new Map<string, number>();
  for (const [input, bytes] of load.bytesByInput) {
    const origin = originOf(input);
    atLoadByOrigin.set(origin, (atLoadByOrigin.get(origin) ?? 0) + bytes);
  }
  // The files loaded by a dynamic import, as absolute paths (what `external` matches).
  const lazyFiles = Object.values(load.metafile.inputs).flatMap((input) =>
    input.imports
      .filter((imported) => imported.kind === "dynamic-import")
      .map((imported) => path.join(root, imported.path))
  );
  return {
    atLoad: { name, min: load.min, gzip: load.gzip },
    atFirstRun: sizeOf(firstRun.name, [...atFirstRun].map(contentsOf)),
    firstRunChunks: { atLoad: atLoad.size, more: atFirstRun.size - atLoad.size },
    lazy,
    atLoadByOrigin,
    lazyFiles: [...new Set(lazyFiles)],
  };
}

/** A package's name, or a folder of src/ (its top files as "src"). */
function originOf(input: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (inPackage) return inPackage[1];
  return input.startsWith("src/") ? path.dirname(input) : input;
}

const client = split(
  "SpellClient, at load",
  `export { SpellClient } from "./src/client/index.ts";`,
  { name: "SpellClient, at first run", part: "src/runs/clientCore.ts" }
);
const fromRoot = split(
  "  from spellrun, at load",
  `export { SpellClient } from "./src/index.ts";`,
  { name: "  from spellrun, at first run", part: "src/runs/clientCore.ts" }
);
const clientLean = single(
  "SpellClient, without lazy parts",
  `export { SpellClient } from "./src/index.ts";`,
  client.lazyFiles
);
const clientWhole = single(
  "SpellClient, all in one",
  `export { SpellClient } from "./src/index.ts";`
);
const ky = single("ky", `export { default as ky } from "ky";`);
const rxjs = single(
  "bare rxjs",
  `export { defer, timer, expand, takeWhile, retry, switchMap, map, share } from "rxjs";`
);

/**
 * The same import built by webpack 5 (production: terser, module-level tree shaking and chunks,
 * TypeScript through ts-loader as the add-in's build): its entry chunk, what a page loads at
 * once, webpack's chunk-loading runtime included. For comparison only: the goal is esbuild's.
 */
function webpackAtLoad(): Promise<Size> {
  const out = `${outdir}-webpack`;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const entry = path.join(out, "entry.mjs");
  writeFileSync(
    entry,
    `import { SpellClient } from ${JSON.stringify(path.join(root, "src", "index.js"))};\n` +
      `globalThis.SpellClient = SpellClient;\n`
  );
  const compiler = webpack({
    mode: "production",
    context: root,
    entry,
    output: { path: out, filename: "[name].js", chunkFilename: "[name].[contenthash].js" },
    resolve: { extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } },
    module: {
      rules: [
        {
          test: /\.ts$/,
          use: {
            loader: "ts-loader",
            options: {
              transpileOnly: true,
              configFile: path.join(root, "tsconfig.json"),
              compilerOptions: { target: "es2020", module: "esnext" },
            },
          },
        },
      ],
    },
    target: ["web", "es2020"],
    stats: "errors-only",
  });
  return new Promise((resolve, reject) =>
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error || !stats || stats.hasErrors()) {
        reject(error ?? new Error(stats?.toString() ?? "webpack failed"));
        return;
      }
      resolve(
        sizeOf("SpellClient, at load (webpack 5)", [readFileSync(path.join(out, "main.js"))])
      );
    })
  );
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
async function main(): Promise<void> {
  const clientWebpack = await webpackAtLoad();
  const rows = [
    client.atLoad,
    client.atFirstRun,
    ...client.lazy,
    fromRoot.atLoad,
    fromRoot.atFirstRun,
    clientLean,
    clientWhole,
    clientWebpack,
    ky,
    rxjs,
  ];
  console.log(
    `${"bundle".padEnd(34)}${"min".padStart(10)}${"gzip".padStart(10)}${"gzip / ky".padStart(11)}${"gzip / rxjs".padStart(13)}`
  );
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(34)}${kb(row.min).padStart(10)}${kb(row.gzip).padStart(10)}` +
        `${(row.gzip / ky.gzip).toFixed(2).padStart(11)}${(row.gzip / rxjs.gzip).toFixed(2).padStart(13)}`
    );
  }
  console.log(`\n${client.atLoad.name}, minified bytes by origin:`);
  for (const [origin, bytes] of [...client.atLoadByOrigin].sort((a, b) => b[1] - a[1])) {
    if (bytes > 0) console.log(`  ${origin.padEnd(32)}${kb(bytes).padStart(10)}`);
  }
  console.log(
    `\n${client.atFirstRun.name}: ${client.firstRunChunks.atLoad} files at load, then ` +
      `${client.firstRunChunks.more} more on the first run (the core), ` +
      `${kb(client.atFirstRun.min - client.atLoad.min)} minified, ` +
      `${kb(client.atFirstRun.gzip - client.atLoad.gzip)} gzip more`
  );
  const met = client.atLoad.gzip <= GOAL_GZIP_BYTES;
  const exact = (bytes: number) => `${(bytes / 1000).toFixed(2)} KB`;
  const within = (bytes: number) => (bytes <= GOAL_GZIP_BYTES ? "within" : "over");
  console.log(
    `\nSpellClient (spellrun/client) at load: ${exact(client.atLoad.gzip)} gzip, ` +
      `goal ${kb(GOAL_GZIP_BYTES)}: ${met ? "met" : "not met"} ` +
      `(from spellrun: ${exact(fromRoot.atLoad.gzip)}, ${within(fromRoot.atLoad.gzip)} the goal; ` +
      `from spellrun built by webpack 5: ${exact(clientWebpack.gzip)}, ` +
      `${within(clientWebpack.gzip)} the goal)`
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
