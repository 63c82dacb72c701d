import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import webpack from "webpack";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { specWebpackConfig } = require("../../../scripts/browserBuild.cjs") as {
  specWebpackConfig: (root: string) => webpack.Configuration;
};

const root = path.join(__dirname, "..", "..", "..");

/** Where the production page loads office.js from; the Chromium specs answer it with the stand-in. */
export const OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

let bundled: Promise<string> | undefined;

/**
 * The stand-in for office.js (`fakeOfficeJs.ts`: the mock workbook, a CustomFunctions recorder),
 * bundled for Chromium once per process.
 *
 * ## Example
 * ```ts
 * await context.route(OFFICE_JS, async (route) =>
 *   route.fulfill({ contentType: "text/javascript", body: await fakeOfficeJs() }));
 * ```
 *
 * @return The bundle's text.
 */
export function fakeOfficeJs(): Promise<string> {
  bundled ??= (async () => {
    const output = mkdtempSync(path.join(os.tmpdir(), "spellrun-fake-office-"));
    const compiler = webpack({
      mode: "development",
      devtool: false,
      context: root,
      entry: { office: "./test/addin-server/support/fakeOfficeJs.ts" },
      output: { path: output, filename: "[name].js" },
      ...specWebpackConfig(root),
      performance: { hints: false },
    });
    await new Promise<void>((resolve, reject) =>
      compiler.run((error, stats) => {
        compiler.close(() => undefined);
        if (error) reject(error);
        else if (stats?.hasErrors()) reject(new Error(stats.toString("errors-only")));
        else resolve();
      })
    );
    return readFileSync(path.join(output, "office.js"), "utf8");
  })();
  return bundled;
}
