import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { serveFolder, type ServedFolder } from "../../scripts/serveFolder.js";
import {
  clickCell,
  dragFillHandle,
  shown,
  staticPlaygroundBuild,
  typeInCell,
  until,
} from "./support/staticPlayground.js";

/**
 * Results paid for survive a browser that ends abruptly (killed, crashed: no pagehide, nothing
 * written on the way out). The add-in writes a result to storage within `flushDelayMs` (100 ms)
 * of its arrival, and in a page outside Office that storage is IndexedDB, on disk once a write
 * resolves; `localStorage` reached the disk only seconds to minutes later in Chromium, so a kill
 * soon after the runs lost them and the reopened page paid for them again. Chromium with a
 * profile folder of its own, killed with SIGKILL and opened again on the same folder.
 */
const SENTIMENT = (row: number) =>
  `=SPELL.RUN("sentiment", SPELL.INPUTS("text", A${row}), "label")`;
const LAST_ROW = 12;

type PageWindow = {
  __emulator: { stats: { runsCreated: number; bulkRunsCreated: number } };
};

/** Runs the page's emulator started since the page loaded: single and bulk rows. */
function runsStarted(page: Page): Promise<number> {
  return page.evaluate(() => {
    const { stats } = (window as unknown as PageWindow).__emulator;
    return stats.runsCreated + stats.bulkRunsCreated;
  });
}

/** Chromium on `profile`, the page open at the playground and ready. */
async function openOn(
  profile: string,
  served: ServedFolder
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROME_BIN || "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
  // tsx keeps function names through a helper (__name) that page.evaluate's functions bring along.
  await context.addInitScript("globalThis.__name = (target) => target;");
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto(`${served.origin}/`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  return { context, page };
}

/** SIGKILLs every process of the Chromium started on `profile` (found by its command line). */
function killChromiumOf(profile: string): number {
  const flag = `--user-data-dir=${profile}`;
  let killed = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (!command.split("\0").includes(flag)) continue;
    try {
      process.kill(Number(entry), "SIGKILL");
      killed++;
    } catch {
      // Ended meanwhile.
    }
  }
  return killed;
}

describe("The static playground after the browser is killed (Chromium)", () => {
  let served: ServedFolder;
  let profile: string;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    served = await serveFolder(await staticPlaygroundBuild(), 0);
  }, 300_000);
  afterAll(async () => {
    await served?.close();
  });
  beforeEach(() => {
    profile = mkdtempSync(path.join(os.tmpdir(), "spellrun-killed-"));
  });
  afterEach(async () => {
    await context?.close().catch(() => undefined);
    context = undefined;
    rmSync(profile, { recursive: true, force: true });
  }, 30_000);

  it("should run nothing again for finished cells when the page is opened after a kill", async () => {
    let page: Page;
    ({ context, page } = await openOn(profile, served));
    await typeInCell(page, "C2", SENTIMENT(2));
    await until(page, "C2's result", async () => !/^#/.test(await shown(page, "C2")));
    await clickCell(page, "C2");
    await dragFillHandle(page, `C${LAST_ROW}`);
    await until(page, "every result", async () => {
      for (let row = 2; row <= LAST_ROW; row++) {
        if (/^#|^$/.test(await shown(page, `C${row}`))) return false;
      }
      return true;
    });
    const before = [];
    for (let row = 2; row <= LAST_ROW; row++) before.push(await shown(page, `C${row}`));
    expect(await runsStarted(page)).toBe(LAST_ROW - 1);

    // Results reach storage within about 100 ms of arriving: the kill comes 400 ms after the
    // last one is shown (localStorage would have waited 5 s at least).
    await page.waitForTimeout(400);
    expect(killChromiumOf(profile)).toBeGreaterThan(0);
    await context.close().catch(() => undefined);

    ({ context, page } = await openOn(profile, served));
    await until(page, "the results again", async () => {
      for (let row = 2; row <= LAST_ROW; row++) {
        if (/^#|^$/.test(await shown(page, `C${row}`))) return false;
      }
      return true;
    });
    // Time for any run the reopened page might start to reach the emulator.
    await page.waitForTimeout(1_000);
    const after = [];
    for (let row = 2; row <= LAST_ROW; row++) after.push(await shown(page, `C${row}`));
    expect(after).toEqual(before);
    expect(await runsStarted(page)).toBe(0);
  }, 120_000);
});
