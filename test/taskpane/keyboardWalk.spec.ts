/**
 * The task pane from the keyboard alone, in Debian's Chromium driven by playwright-core (real key
 * presses, which a page's own script cannot make): the harness page (the real task pane over the
 * mock workbook, against an emulator), then Tab and Enter only through Use selection, Run and
 * Cancel. No mouse event is sent.
 */
import { mkdtemp, rm } from "node:fs/promises";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import type { Browser, Page } from "playwright-core";
import { startEmulator } from "../../emulator/startEmulator.js";
import { bundleHarness, harnessPage, serveHarness } from "../../scripts/harnessPage.js";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumFlags } = require("../../scripts/browserBuild.cjs") as { chromiumFlags: string[] };

/** Presses Tab until the element with `id` holds the focus (fails after `limit` presses). */
async function tabTo(tab: Page, id: string, limit = 60): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    await tab.keyboard.press("Tab");
    if ((await tab.evaluate(() => document.activeElement?.id)) === id) return;
  }
  throw new Error(`#${id} was not reached with ${limit} presses of Tab`);
}

/** Waits until the text of `#id` matches `pattern`. */
async function textMatches(tab: Page, id: string, pattern: RegExp): Promise<void> {
  await tab.waitForFunction(
    ([selector, source]) =>
      new RegExp(source).test(document.querySelector(selector)?.textContent ?? ""),
    [`#${id}`, pattern.source] as const,
    { timeout: 60_000 }
  );
}

describe("Task pane from the keyboard alone (Chromium)", () => {
  let browser: Browser | undefined;
  let server: http.Server | undefined;
  let emulator: Awaited<ReturnType<typeof startEmulator>> | undefined;
  let folder = "";

  afterEach(async () => {
    await browser?.close();
    server?.close();
    await emulator?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("should plan, run and cancel a bulk with Tab, typing and Enter only", async () => {
    // Bulk runs appear a few at a time, so the bulk is still running when Cancel is pressed.
    emulator = await startEmulator({
      timeScale: 1,
      faults: { lazyBulk: { groupVisibleAfterMs: 400, runsPerPoll: 2 } },
    });
    folder = await mkdtemp(path.join(os.tmpdir(), "spellrun-keyboard-"));
    await bundleHarness(folder);
    server = await serveHarness(
      folder,
      harnessPage({
        baseUrl: emulator.baseUrl,
        pollBaseUrl: emulator.pollBaseUrl,
        apiKey: emulator.apiKey,
      })
    );
    browser = await chromium.launch({
      executablePath: process.env.CHROME_BIN || "/usr/bin/chromium",
      args: chromiumFlags,
    });
    const tab = await browser.newPage({ viewport: { width: 320, height: 900 } });
    const { port } = server.address() as AddressInfo;
    await tab.goto(`http://127.0.0.1:${port}/`);
    await tab.waitForFunction(
      () => (window as unknown as { __harness?: { ready: boolean } }).__harness?.ready === true,
      null,
      { timeout: 30_000 }
    );

    await tabTo(tab, "spell-id");
    await tab.keyboard.type("summarize");
    await tabTo(tab, "use-selection");
    await tab.keyboard.press("Enter");
    await textMatches(tab, "plan-summary", /40 runs at most will start/);

    await tabTo(tab, "run");
    await tab.keyboard.press("Enter");
    await textMatches(tab, "progress-text", /^Running/);

    await tabTo(tab, "cancel");
    await tab.keyboard.press("Enter");
    await textMatches(tab, "progress-text", /^Cancelled/);
    const summary = await tab.textContent("#progress-text");
    const done = Number(/(\d+) \/ 40 done/.exec(summary ?? "")?.[1]);
    expect(done).toBeLessThan(40);
  }, 240_000);
});
