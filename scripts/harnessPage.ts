/**
 * The task pane outside Excel as a page, for `npm run screenshot` and the keyboard spec: the
 * harness (real task pane, mock workbook) bundled with webpack and served on 127.0.0.1.
 */
import { readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import webpack from "webpack";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { specWebpackConfig } = require("./browserBuild.cjs") as {
  specWebpackConfig: (root: string) => webpack.Configuration;
};

const root = path.resolve(__dirname, "..");

/**
 * Bundles test/taskpane/screenshotHarness.ts (the real task pane over the mock workbook) with
 * webpack into `outputPath` as `harness.js`.
 *
 * ## Example
 * ```ts
 * await bundleHarness(folder);
 * ```
 */
export function bundleHarness(outputPath: string): Promise<void> {
  const compiler = webpack({
    mode: "development",
    devtool: false,
    context: root,
    entry: { harness: "./test/taskpane/screenshotHarness.ts" },
    output: { path: outputPath, filename: "[name].js" },
    ...specWebpackConfig(root),
    performance: { hints: false },
  });
  return new Promise((resolve, reject) =>
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error) reject(error);
      else if (stats?.hasErrors()) reject(new Error(stats.toString("errors-only")));
      else resolve();
    })
  );
}

/**
 * The harness page's HTML, with the emulator's addresses for the pane's settings.
 *
 * ## Example
 * ```ts
 * const html = harnessPage(emulator);
 * ```
 */
export function harnessPage(emulator: {
  baseUrl: string;
  pollBaseUrl: string;
  apiKey: string;
}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" /><title>Spell Run</title>
<script>window.__spellEmulator = ${JSON.stringify(emulator)};</script></head>
<body><main id="app"></main><script src="harness.js"></script></body></html>`;
}

/**
 * Serves the page and the bundle in `folder` on 127.0.0.1 (a random port): `harness.js` and every
 * chunk webpack emitted beside it for a lazy `import()`.
 *
 * ## Example
 * ```ts
 * const server = await serveHarness(folder, harnessPage(emulator));
 * ```
 */
export async function serveHarness(folder: string, html: string): Promise<http.Server> {
  const server = http.createServer(async (request, response) => {
    const url = (request.url ?? "").split("?")[0];
    if (url === "/" || url === "/index.html") {
      response.writeHead(200, { "content-type": "text/html" }).end(html);
    } else if (/^\/[\w-]+\.js$/.test(url)) {
      // harness.js and the chunks webpack splits off for the core's lazy imports (one folder, no
      // path below it).
      const bundle = await readFile(path.join(folder, url.slice(1))).catch(() => undefined);
      if (bundle) response.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
      else response.writeHead(404).end();
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}
