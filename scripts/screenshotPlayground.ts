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
import type { Browser, BrowserContext, Page } from "playwright-core";
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

/** The picture's size: the banner, the formula bar and the 37 rows of reviews with room below. */
const VIEWPORT = { width: 1280, height: 1180 };

/**
 * A fresh page of the playground in a browser profile of its own (nothing saved by an earlier
 * picture: the page keeps its document in the browser and would reopen it), ready to use.
 */
async function openPlayground(
  browser: Browser,
  emulator: ScreenshotEmulator,
  port: number
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  // As a person who pasted the emulator's key in Settings once.
  await context.addInitScript((settings) => {
    if (!localStorage.getItem("spellrun.settings")) {
      localStorage.setItem("spellrun.settings", JSON.stringify(settings));
    }
  }, emulator);
  // tsx keeps function names through a helper (__name) that page.evaluate's functions bring along.
  await context.addInitScript("globalThis.__name = (target) => target;");
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("page error:", error.message));
  await page.goto(`http://127.0.0.1:${port}/playground.html`);
  await page.waitForFunction(() => document.body.dataset.ready === "true", null, {
    timeout: 60_000,
  });
  return { context, page };
}

/** The grid cell at a column and a row (0-based), as the grid numbers them. */
const cellOf = (page: Page) => (column: number, row: number) =>
  page.locator(`#grid td[data-x="${column}"][data-y="${row}"]`).first();

/**
 * Fails unless the page shows what the docs say of the picture: row 1 to row 37 wholly in view
 * (the view not scrolled by a drag at its edge), the active cell `address` in the formula bar,
 * the pane's selection `summary` when given, nothing written right of the reviews' outputs
 * (column F), and the document saved (not "Saving…").
 */
async function expectPicture(
  page: Page,
  { address, summary }: { address: string; summary: string | undefined }
): Promise<void> {
  await page.waitForFunction(
    () => document.getElementById("playground-saved")?.textContent !== "Saving…",
    null,
    { timeout: 10_000 }
  );
  const problems = await page.evaluate(
    ({ address, summary }) => {
      const found: string[] = [];
      // Only the sheet shown (each sheet's grid is in the page; the others are hidden).
      const cells = (selector: string) =>
        [...document.querySelectorAll<HTMLElement>(`#grid ${selector}`)].filter(
          (td) => td.offsetParent !== null
        );
      const shownWhole = (row: number) => {
        const td = cells(`td[data-x="0"][data-y="${row}"]`)[0];
        const box = td?.getBoundingClientRect();
        if (!td || !box) return false;
        // A row half under the column headers or the window's edge is not shown whole.
        const top = document.elementFromPoint(box.left + 4, box.top + box.height * 0.3);
        const bottom = document.elementFromPoint(box.left + 4, box.bottom - box.height * 0.3);
        return td.contains(top) && td.contains(bottom);
      };
      if (!shownWhole(0)) found.push("row 1 is not wholly in view (the view scrolled)");
      if (!shownWhole(36)) found.push("row 37 is not wholly in view");
      const shownAddress = document.getElementById("formula-address")?.textContent ?? "";
      if (shownAddress !== address)
        found.push(`the active cell is ${shownAddress}, not ${address}`);
      if (summary && !document.getElementById("app")?.textContent?.includes(summary))
        found.push(`the pane does not say "${summary}"`);
      const columnF = cells('tbody td[data-x="5"]').filter((td) => td.textContent !== "");
      if (columnF.length > 0)
        found.push(`column F holds ${columnF.map((td) => td.textContent).join(", ")}`);
      return found;
    },
    { address, summary }
  );
  if (problems.length > 0) throw new Error(`The picture would be wrong: ${problems.join("; ")}`);
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
    const open = () => openPlayground(browser, emulator, port);

    // The sheet: a header, a formula typed in C2, filled down to row 37 with the fill handle.
    const sheet = await open();
    const tab = sheet.page;
    const cell = cellOf(tab);
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
    await expectPicture(tab, { address: "C5", summary: undefined });
    await tab.screenshot({ path: path.join(docs, "playground-sheet.png") });
    await sheet.context.close();

    // The pane: a fresh page (the sheet above is saved in its own browser profile, which a reload
    // would reopen), the reviews and their language selected, sentiment running.
    const pane = await open();
    const page = pane.page;
    const paneCell = cellOf(page);
    const first = await paneCell(0, 0).boundingBox();
    const end = await paneCell(1, 36).boundingBox();
    if (!first || !end) throw new Error("the reviews are not on screen");
    await page.mouse.move(first.x + 10, first.y + 5);
    await page.mouse.down();
    await page.mouse.move(end.x + 10, end.y + 5, { steps: 8 });
    await page.mouse.up();
    await page.locator("#spell-id").click();
    await page.keyboard.type("sentiment");
    await page.keyboard.press("Tab");
    await page.click("#use-selection");
    await page.waitForFunction(
      () => /will start/.test(document.querySelector("#plan-summary")?.textContent ?? ""),
      null,
      { timeout: 15_000 }
    );
    await page.click("#run");
    await page.waitForFunction(
      () => {
        const text = document.querySelector("#progress-text")?.textContent ?? "";
        const done = Number(/(\d+) \/ \d+ done/.exec(text)?.[1] ?? 0);
        return done >= 10 && done <= 26;
      },
      null,
      { timeout: 60_000, polling: 50 }
    );
    await page.waitForTimeout(300); // the progress bar's transition
    await expectPicture(page, { address: "A1", summary: "Reviews!A1:B37 · 36 rows" });
    await page.screenshot({ path: path.join(docs, "playground-running.png") });
    await page
      .waitForFunction(
        () => /^Finished/.test(document.querySelector("#progress-text")?.textContent ?? ""),
        null,
        { timeout: 90_000 }
      )
      .catch(() => undefined); // let the run end before the emulator stops; the picture is taken
    await pane.context.close();
    console.log("Saved docs/playground-sheet.png and docs/playground-running.png (1280 px wide).");
  } finally {
    server?.close();
    await rm(folder, { recursive: true, force: true });
  }
}
