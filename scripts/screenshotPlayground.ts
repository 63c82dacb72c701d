/**
 * The playground's pictures for `npm run screenshot` (scripts/screenshot.ts): the page as the dev
 * server builds it (the add-in's functions.js, functions.json and taskpane.js, and the
 * playground's page), built by the root webpack.config.js into a temporary folder, served on
 * 127.0.0.1, and used as a person would with a mouse and a keyboard:
 * - docs/playground-sheet.png: a SPELL.RUN formula typed and filled down the reviews;
 * - docs/playground-running.png: the task pane in the middle of a run over the reviews.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import webpack from "webpack";

const root = path.resolve(__dirname, "..");
const docs = path.join(root, "docs");

/** The emulator the pictures run against. */
export interface ScreenshotEmulator {
  baseUrl: string;
  pollBaseUrl: string;
  apiKey: string;
}

type ConfigFactory = (
  env: Record<string, unknown>,
  options: { mode: string }
) => Promise<webpack.Configuration | webpack.Configuration[]>;

/** Builds the add-in and the playground page, as `npm start`'s dev server does, into `folder`. */
async function build(folder: string, emulator: ScreenshotEmulator): Promise<void> {
  const before = { base: process.env.SPELL_BASE_URL, poll: process.env.SPELL_POLL_BASE_URL };
  // The settings start at this emulator (it answers CORS), not at a dev server's proxy.
  process.env.SPELL_BASE_URL = emulator.baseUrl;
  process.env.SPELL_POLL_BASE_URL = emulator.pollBaseUrl;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const configure = require("../webpack.config.js") as ConfigFactory;
    const configs = await configure(
      { WEBPACK_SERVE: true, WEBPACK_BUILD: true },
      { mode: "development" }
    );
    if (!Array.isArray(configs)) throw new Error("the dev build has no playground compilation");
    for (const config of configs) {
      config.output = { ...config.output, path: folder, clean: false };
      config.devtool = false;
      delete (config as { devServer?: unknown }).devServer;
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
  } finally {
    process.env.SPELL_BASE_URL = before.base;
    process.env.SPELL_POLL_BASE_URL = before.poll;
    if (before.base === undefined) delete process.env.SPELL_BASE_URL;
    if (before.poll === undefined) delete process.env.SPELL_POLL_BASE_URL;
  }
}

const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".json": "application/json",
  ".png": "image/png",
};

async function serve(folder: string): Promise<http.Server> {
  const server = http.createServer(async (request, response) => {
    const name = path.normalize((request.url ?? "/").split("?")[0]).replace(/^(\.\.[/\\])+/, "");
    try {
      const body = await readFile(path.join(folder, name));
      response
        .writeHead(200, { "content-type": TYPES[path.extname(name)] ?? "text/plain" })
        .end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

/**
 * Saves docs/playground-sheet.png and docs/playground-running.png.
 *
 * ## Example
 * ```ts
 * await playgroundScreenshots(browser, emulator);
 * ```
 *
 * @param browser Chromium, launched by the caller.
 * @param emulator The emulator to run against (slow enough that a run can be caught mid-way).
 */
export async function playgroundScreenshots(
  browser: Browser,
  emulator: ScreenshotEmulator
): Promise<void> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "spellrun-playground-"));
  let server: http.Server | undefined;
  try {
    await build(folder, emulator);
    server = await serve(folder);
    const { port } = server.address() as AddressInfo;
    const context = await browser.newContext({
      viewport: { width: 1280, height: 1060 },
      deviceScaleFactor: 1,
    });
    // As a person who pasted the emulator's key in Settings once.
    await context.addInitScript((settings) => {
      if (!localStorage.getItem("spellrun.settings")) {
        localStorage.setItem("spellrun.settings", JSON.stringify(settings));
      }
    }, emulator);
    const tab = await context.newPage();
    tab.on("pageerror", (error) => console.error("page error:", error.message));
    await tab.goto(`http://127.0.0.1:${port}/playground.html`);
    await tab.waitForFunction(() => document.body.dataset.ready === "true", null, {
      timeout: 60_000,
    });
    const cell = (column: number, row: number) =>
      tab.locator(`#grid td[data-x="${column}"][data-y="${row}"]`).first();

    // The sheet: a header, a formula typed in C2, filled down to row 37 with the fill handle.
    await cell(2, 0).dblclick();
    await tab.keyboard.type("summary");
    await tab.keyboard.press("Enter");
    await cell(2, 1).dblclick();
    await tab.keyboard.type('=SPELL.RUN("summarize", SPELL.INPUTS("text", A2), "summary")');
    await tab.keyboard.press("Enter");
    await cell(2, 1).click();
    const corner = await tab.locator("#grid .jss_corner").first().boundingBox();
    const last = await cell(2, 36).boundingBox();
    if (!corner || !last) throw new Error("the fill handle or row 37 is not on screen");
    await tab.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
    await tab.mouse.down();
    await tab.mouse.move(last.x + last.width / 2, last.y + last.height / 2, { steps: 12 });
    await tab.mouse.up();
    await tab.waitForFunction(
      () =>
        [...document.querySelectorAll('#grid td[data-x="2"]')]
          .slice(1, 37)
          .every((td) => td.textContent !== "" && td.textContent !== "#BUSY!"),
      null,
      { timeout: 60_000, polling: 100 }
    );
    await cell(2, 4).click(); // the formula bar shows the filled-down formula of row 5
    await tab.screenshot({ path: path.join(docs, "playground-sheet.png") });

    // The pane: a fresh page, the reviews and their language selected, sentiment running.
    await tab.reload();
    await tab.waitForFunction(() => document.body.dataset.ready === "true", null, {
      timeout: 60_000,
    });
    const first = await cell(0, 0).boundingBox();
    const end = await cell(1, 36).boundingBox();
    if (!first || !end) throw new Error("the reviews are not on screen");
    await tab.mouse.move(first.x + 10, first.y + 5);
    await tab.mouse.down();
    await tab.mouse.move(end.x + 10, end.y + 5, { steps: 8 });
    await tab.mouse.up();
    await tab.locator("#spell-id").click();
    await tab.keyboard.type("sentiment");
    await tab.keyboard.press("Tab");
    await tab.click("#use-selection");
    await tab.waitForFunction(
      () => /will start/.test(document.querySelector("#plan-summary")?.textContent ?? ""),
      null,
      { timeout: 15_000 }
    );
    await tab.click("#run");
    await tab.waitForFunction(
      () => {
        const text = document.querySelector("#progress-text")?.textContent ?? "";
        const done = Number(/(\d+) \/ \d+ done/.exec(text)?.[1] ?? 0);
        return done >= 10 && done <= 26;
      },
      null,
      { timeout: 60_000, polling: 50 }
    );
    await tab.waitForTimeout(300); // the progress bar's transition
    await tab.screenshot({ path: path.join(docs, "playground-running.png") });
    await tab
      .waitForFunction(
        () => /^Finished/.test(document.querySelector("#progress-text")?.textContent ?? ""),
        null,
        { timeout: 90_000 }
      )
      .catch(() => undefined); // let the run end before the emulator stops; the picture is taken
    await context.close();
    console.log("Saved docs/playground-sheet.png and docs/playground-running.png (1280 px wide).");
  } finally {
    server?.close();
    await rm(folder, { recursive: true, force: true });
  }
}
