import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import webpack from "webpack";

/** Where CI's production build says it is hosted (scripts/test.ts): never contacted. */
export const EXAMPLE_ADDIN_URL = "https://addin.example.com/";
/** The manifest Id of CI's production build (scripts/test.ts). */
export const EXAMPLE_ADDIN_ID = "e27a0de5-7e57-4b1d-9c1a-000000000027";
/** The Entra ID client id of CI's production build (scripts/test.ts): its `<WebApplicationInfo>`. */
export const EXAMPLE_ENTRA_CLIENT_ID = "c1e27a0d-0000-4000-8000-000000000027";

let built: Promise<string> | undefined;

/**
 * The folder a production build of the add-in made for the example host: `npm test` builds once
 * before the specs and names it in SPELLRUN_TEST_ADDIN_BUILD; a spec run alone builds it here,
 * once per process, into a temporary folder (about a minute).
 *
 * ## Example
 * ```ts
 * const folder = await productionAddinBuild(); // …/dist/addin
 * ```
 */
export function productionAddinBuild(): Promise<string> {
  const given = process.env.SPELLRUN_TEST_ADDIN_BUILD;
  if (given && existsSync(path.join(given, "manifest.xml"))) return Promise.resolve(given);
  built ??= (async () => {
    const output = path.join(mkdtempSync(path.join(os.tmpdir(), "spellrun-build-")), "addin");
    const saved = { ...process.env };
    process.env.SPELLRUN_ADDIN_URL = EXAMPLE_ADDIN_URL;
    process.env.SPELLRUN_ADDIN_ID = EXAMPLE_ADDIN_ID;
    process.env.SPELLRUN_ENTRA_CLIENT_ID = EXAMPLE_ENTRA_CLIENT_ID;
    delete process.env.SPELLRUN_ENTRA_RESOURCE;
    delete process.env.SPELLRUN_ENTRA_SCOPES;
    delete process.env.SPELLRUN_PROVIDER_NAME;
    delete process.env.SPELLRUN_ADDIN_VERSION;
    delete process.env.SPELL_BASE_URL;
    delete process.env.SPELL_POLL_BASE_URL;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const configure = require("../../../webpack.config.js") as (
        env: Record<string, unknown>,
        options: { mode: string }
      ) => Promise<webpack.Configuration>;
      const config = await configure({ WEBPACK_BUILD: true }, { mode: "production" });
      config.output = { ...config.output, path: output };
      await new Promise<void>((resolve, reject) => {
        const compiler = webpack(config);
        compiler.run((error, stats) => {
          compiler.close(() => undefined);
          if (error) reject(error);
          else if (stats?.hasErrors()) reject(new Error(stats.toString("errors-only")));
          else resolve();
        });
      });
    } finally {
      process.env = saved;
    }
    return output;
  })();
  return built;
}
