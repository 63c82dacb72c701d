import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { buildStaticPlayground } from "../../../scripts/buildPlayground.js";
import { serveFolder, type ServedFolder } from "../../../scripts/serveFolder.js";

let built: Promise<string> | undefined;

/**
 * The static playground's folder: SPELLRUN_TEST_PLAYGROUND_BUILD when it names a build (e.g.
 * dist/playground-static after `npm run build:playground`), else built once per process into a
 * temporary folder (about a minute).
 *
 * ## Example
 * ```ts
 * const folder = await staticPlaygroundBuild();
 * ```
 */
export function staticPlaygroundBuild(): Promise<string> {
  const given = process.env.SPELLRUN_TEST_PLAYGROUND_BUILD;
  if (given && existsSync(path.join(given, "index.html"))) return Promise.resolve(given);
  built ??= buildStaticPlayground(
    path.join(mkdtempSync(path.join(os.tmpdir(), "spellrun-playground-")), "static")
  );
  return built;
}

/** A static playground open in Chromium from a plain static server. */
export interface OpenPlayground {
  page: Page;
  served: ServedFolder;
  browser: Browser;
  /** Page errors and console errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Serves the static playground with a plain static server (node:http) and opens it in Debian's
 * Chromium (nothing else on the network is contacted).
 *
 * ## Example
 * ```ts
 * const { page, close } = await openStaticPlayground();
 * ```
 */
export async function openStaticPlayground(): Promise<OpenPlayground> {
  const folder = await staticPlaygroundBuild();
  const served = await serveFolder(folder, 0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_BIN || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const page = await newPlaygroundPage(browser);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") {
      // A failed load names no address in its console text: the address is added.
      const where = message.location().url;
      errors.push(where ? `${message.text()} (${where})` : message.text());
    }
  });
  return {
    page,
    served,
    browser,
    errors,
    close: async () => {
      await browser.close();
      await served.close();
    },
  };
}

/**
 * A page in a browser context of its own: nothing on the network but this computer, and storage
 * of its own (the playground keeps its document in the page's IndexedDB, so a page of another
 * context opens the demo afresh); closing the page closes its context.
 *
 * ## Example
 * ```ts
 * const page = await newPlaygroundPage(open.browser);
 * await page.goto(`${open.served.origin}/`);
 * ```
 */
export async function newPlaygroundPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
  // tsx keeps function names through a helper (__name) that page.evaluate's functions bring along.
  await context.addInitScript("globalThis.__name = (target) => target;");
  const page = await context.newPage();
  page.once("close", () => void context.close().catch(() => undefined));
  return page;
}

/**
 * A suite's page: the static playground served and opened afresh, ready to use
 * (`body[data-ready=true]`).
 *
 * ## Example
 * ```ts
 * beforeAll(async () => {
 *   ({ open, page } = await openReadyPlayground());
 * }, 300_000);
 * afterAll(() => closeReadyPlayground(open, page));
 * ```
 */
export async function openReadyPlayground(): Promise<{ open: OpenPlayground; page: Page }> {
  const open = await openStaticPlayground();
  return { open, page: await openReadyPage(open) };
}

/**
 * A fresh page (a context of its own: the demo afresh, since the page keeps its document in its
 * storage) on the served playground, ready to use (`body[data-ready=true]`).
 *
 * ## Example
 * ```ts
 * beforeEach(async () => {
 *   page = await openReadyPage(open);
 * }, 90_000);
 * ```
 */
export async function openReadyPage(open: OpenPlayground): Promise<Page> {
  const page = await newPlaygroundPage(open.browser);
  await page.goto(`${open.served.origin}/`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  return page;
}

/**
 * Closes what `openReadyPlayground` opened (either may be missing after a failed start).
 *
 * ## Example
 * ```ts
 * afterAll(() => closeReadyPlayground(open, page));
 * ```
 */
export async function closeReadyPlayground(
  open: OpenPlayground | undefined,
  page: Page | undefined
): Promise<void> {
  await page?.close();
  await open?.close();
}

export {
  cellSelector,
  clickCell,
  dragFillHandle,
  fillDownTo,
  fillFarDownTo,
  shown,
  typeInCell,
} from "../../../scripts/playgroundGestures.js";

/**
 * Polls `check` every 100 ms until it holds, failing with "timed out waiting for <what>".
 *
 * ## Example
 * ```ts
 * await until(page, "C2's result", async () => (await shown(page, "C2")) !== "#BUSY!");
 * ```
 * @param page the page whose clock paces the polls
 * @param what what is awaited, for the error
 * @param check the condition
 * @param timeoutMs how long to wait (20 s)
 */
export async function until(
  page: Page,
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 20_000
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(100);
  }
}
