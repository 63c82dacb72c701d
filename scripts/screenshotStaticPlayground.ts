/**
 * The static playground's pictures for `npm run screenshot` (scripts/screenshot.ts): the folder
 * `npm run build:playground` makes, served by a plain static server and used with a mouse and a
 * keyboard in Chromium:
 * - docs/playground-fill-1000.png: one column filled down to row 1,000 with one drag;
 * - docs/playground-guard.png: the spending guard's question, reached by filling a SPELL.RUN
 *   formula down beside it (more than 100 runs).
 * It prints the frame time while the filled sheet scrolls.
 */
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildStaticPlayground, STATIC_PLAYGROUND_DIR } from "./buildPlayground.js";
import { clickCell, fillDownTo, shown, typeInCell } from "./playgroundGestures.js";
import { serveFolder } from "./serveFolder.js";

const docs = path.join(path.resolve(__dirname, ".."), "docs");

/** Frame times (ms) while the sheet's view scrolls down by the wheel, as a person scrolls. */
async function scrollFrameTimes(page: Page): Promise<{ median: number; p95: number; max: number }> {
  const sheet = await page.locator(".playground-sheet").boundingBox();
  if (!sheet) throw new Error("no sheet view");
  await page.locator(".playground-sheet").evaluate((element) => (element.scrollTop = 0));
  await page.mouse.move(sheet.x + sheet.width / 2, sheet.y + sheet.height / 2);
  await page.evaluate(() => {
    const frames: number[] = [];
    (window as unknown as { __frames: number[] }).__frames = frames;
    let last = performance.now();
    const tick = (now: number) => {
      frames.push(now - last);
      last = now;
      if (frames.length < 400) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  for (let i = 0; i < 60; i++) {
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(16);
  }
  const frames = await page.evaluate(() =>
    (window as unknown as { __frames: number[] }).__frames.slice(1).sort((a, b) => a - b)
  );
  const at = (share: number) =>
    frames[Math.min(frames.length - 1, Math.floor(frames.length * share))];
  return { median: at(0.5), p95: at(0.95), max: frames[frames.length - 1] };
}

/**
 * Takes the static playground's pictures (building it first unless `folder` holds a build).
 *
 * ## Example
 * ```ts
 * await staticPlaygroundScreenshots(browser);
 * ```
 */
export async function staticPlaygroundScreenshots(
  browser: Browser,
  folder: string = STATIC_PLAYGROUND_DIR
): Promise<void> {
  if (folder === STATIC_PLAYGROUND_DIR) await buildStaticPlayground(folder);
  const served = await serveFolder(folder, 0);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    // tsx keeps function names through a helper (__name) that page.evaluate's functions bring along.
    await context.addInitScript("globalThis.__name = (target) => target;");
    const page = await context.newPage();
    await page.goto(`${served.origin}/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    await typeInCell(page, "D1", "n");
    await typeInCell(page, "D2", "1");
    await clickCell(page, "D2");
    await fillDownTo(page, "D", 1000);
    if ((await shown(page, "D1000")) !== "999") throw new Error("the fill did not reach row 1,000");
    await page.screenshot({ path: path.join(docs, "playground-fill-1000.png") });
    const frames = await scrollFrameTimes(page);
    console.log(
      `Scrolling 1,000 filled rows: frame time median ${frames.median.toFixed(1)} ms, ` +
        `95th percentile ${frames.p95.toFixed(1)} ms, longest ${frames.max.toFixed(1)} ms`
    );
    await page.locator(".playground-sheet").evaluate((element) => (element.scrollTop = 0));
    await typeInCell(page, "E1", "echo");
    await typeInCell(page, "E2", '=SPELL.RUN("echo", SPELL.INPUTS("n", D2), "n")');
    await clickCell(page, "E2");
    await fillDownTo(page, "E", 140);
    await page.locator("#allow-these").waitFor({ state: "visible", timeout: 30_000 });
    await page.screenshot({ path: path.join(docs, "playground-guard.png") });
  } finally {
    await context.close();
    await served.close();
  }
}
