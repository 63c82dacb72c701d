/**
 * `npm run build:playground`: the static playground in dist/playground-static (see
 * playground/webpack.config.cjs): the add-in's built functions.js, functions.json and
 * taskpane.js and the playground page with the Spell service emulator running in it, so any
 * static host (a plain file server, GitHub Pages) serves a playground that needs nothing
 * installed. `npm run playground` serves the same folder; the Chromium spec
 * (test/playground/staticPlayground.spec.ts) opens it from a plain static server.
 */
import path from "node:path";
import webpack from "webpack";

const root = path.resolve(__dirname, "..");

type ConfigFactory = (
  env: Record<string, unknown>,
  options: { mode: string }
) => Promise<webpack.Configuration | webpack.Configuration[]>;

/** The static playground's folder. */
export const STATIC_PLAYGROUND_DIR = path.join(root, "dist", "playground-static");

/**
 * Builds the static playground into `folder` (about a minute: the bundles are minified).
 *
 * ## Example
 * ```ts
 * const folder = await buildStaticPlayground(); // …/dist/playground-static
 * ```
 * @param folder Where to write it. @default dist/playground-static
 * @returns The folder.
 */
export async function buildStaticPlayground(
  folder: string = STATIC_PLAYGROUND_DIR
): Promise<string> {
  const saved = { base: process.env.SPELL_BASE_URL, poll: process.env.SPELL_POLL_BASE_URL };
  // The page's emulator answers the add-in's host paths; a named service would bypass it.
  delete process.env.SPELL_BASE_URL;
  delete process.env.SPELL_POLL_BASE_URL;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const configure = require("../webpack.config.js") as ConfigFactory;
    const configs = await configure(
      { WEBPACK_BUILD: true, SPELLRUN_PLAYGROUND_STATIC: true },
      { mode: "development" }
    );
    if (!Array.isArray(configs)) throw new Error("the static playground build has one compilation");
    for (const config of configs) {
      config.mode = "development";
      config.output = { ...config.output, path: folder, clean: false };
    }
    const compiler = webpack(configs);
    await new Promise<void>((resolve, reject) =>
      compiler.run((error, stats) => {
        compiler.close(() => undefined);
        if (error) reject(error);
        else if (stats?.hasErrors()) reject(new Error(stats.toString("errors-only")));
        else resolve();
      })
    );
    return folder;
  } finally {
    if (saved.base !== undefined) process.env.SPELL_BASE_URL = saved.base;
    if (saved.poll !== undefined) process.env.SPELL_POLL_BASE_URL = saved.poll;
  }
}

if (require.main === module) {
  const started = Date.now();
  buildStaticPlayground().then(
    (folder) =>
      console.log(
        `Built the static playground in ${Math.round((Date.now() - started) / 1000)} s: ` +
          `${path.relative(process.cwd(), folder)}/index.html (serve the folder with any static server)`
      ),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    }
  );
}
