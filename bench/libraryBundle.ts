import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";

/**
 * The library for the browser (the baseline's client), minified like the add-in's bundle: an
 * IIFE that defines the global `spellrun`.
 *
 * ## Example
 * ```ts
 * const libraryJs = libraryBundle(path.join(__dirname, ".."));
 * ```
 * @param root the repository's folder
 * @return the bundle's text
 */
export function libraryBundle(root: string): string {
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
