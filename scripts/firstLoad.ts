import path from "node:path";
import { gzipSync } from "node:zlib";
import { buildSync, type BuildOptions, type Metafile } from "esbuild";

/**
 * How a browser page's module is built for measuring (esbuild: bundled, minified, ES modules,
 * ES2020, with a metafile), as a bundler user builds an app.
 */
export const PAGE_BUILD: BuildOptions = {
  bundle: true,
  minify: true,
  write: false,
  format: "esm",
  platform: "browser",
  target: "es2020",
  metafile: true,
};

/** What a page fetches before it can run the code built from `contents`. */
export interface FirstLoad {
  /** Minified bytes of the entry and every chunk it imports statically. */
  min: number;
  /** The same, joined and compressed with gzip -9. */
  gzip: number;
  /** Minified bytes in those chunks by source file (paths relative to the build's folder). */
  bytesByInput: Map<string, number>;
  /** The whole build's metafile, for a caller that wants the lazy chunks too. */
  metafile: Metafile;
  /** Output paths (relative to the build's folder) loaded at once, the entry's first. */
  atLoad: string[];
  /** Every output's text by its path relative to the build's folder. */
  texts: Map<string, Uint8Array>;
}

/**
 * Builds `contents` as a browser page's module with esbuild (ES modules, code splitting,
 * minified, ES2020), as a bundler user builds an app importing the library, and measures what
 * loads at once: the entry and the chunks it imports statically (dynamic `import()`s load
 * later). esbuild places whole files in chunks by which entry points reach them through imports
 * (evanw/esbuild#3704), so a file the page's imports can reach loads at once even if only a lazy
 * part calls it.
 *
 * ## Example
 * ```ts
 * const load = firstLoad('export { SpellClient } from "./src/client/index.ts";', root);
 * console.log(load.gzip);
 * ```
 * @param contents the page's entry, TypeScript
 * @param resolveDir the folder its imports are relative to (the repository's)
 * @param options more esbuild options (an `outdir` for the chunks' names)
 * @return sizes, bytes by source file and the outputs loaded at once
 */
export function firstLoad(
  contents: string,
  resolveDir: string,
  options: BuildOptions = {}
): FirstLoad {
  const result = buildSync({
    ...PAGE_BUILD,
    splitting: true,
    chunkNames: "[name]-[hash]",
    outdir: path.join(resolveDir, "node_modules", ".cache", "spellrun-first-load"),
    logLevel: "silent",
    absWorkingDir: resolveDir,
    ...options,
    stdin: { contents, resolveDir, loader: "ts", sourcefile: "entry.ts" },
  });
  const metafile = result.metafile as Metafile;
  const texts = new Map(
    (result.outputFiles ?? []).map((file) => [path.relative(resolveDir, file.path), file.contents])
  );
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((key) => outputs[key].entryPoint === "entry.ts");
  if (entry === undefined) throw new Error("esbuild named no output for the page's entry");
  const atLoad: string[] = [];
  const visit = (key: string): void => {
    if (atLoad.includes(key)) return;
    atLoad.push(key);
    for (const imported of outputs[key].imports) {
      if (imported.kind === "import-statement") visit(imported.path);
    }
  };
  visit(entry);
  const joined = Buffer.concat(atLoad.map((key) => texts.get(key) ?? new Uint8Array()));
  const bytesByInput = new Map<string, number>();
  for (const key of atLoad) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[key].inputs)) {
      bytesByInput.set(input, (bytesByInput.get(input) ?? 0) + bytesInOutput);
    }
  }
  return {
    min: joined.length,
    gzip: gzipSync(joined, { level: 9 }).length,
    bytesByInput,
    metafile,
    atLoad,
    texts,
  };
}
