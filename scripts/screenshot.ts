/**
 * `npm run screenshot`: renders the task pane at 320 px wide in Debian's Chromium (no browser
 * download) against an emulator started in this process, with the mock workbook standing in for
 * Excel, and saves PNGs of its settings, running and finished states under docs/.
 *
 * Steps: bundle test/taskpane/screenshotHarness.ts with webpack into a temporary folder, serve it
 * on 127.0.0.1, drive the page with playwright-core, stop everything.
 * Chromium is `CHROME_BIN` or /usr/bin/chromium.
 */
import { mkdtemp, rm } from "node:fs/promises";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { startEmulator } from "../emulator/startEmulator.js";
import { bundleHarness, harnessPage, serveHarness } from "./harnessPage.js";
import { playgroundScreenshots } from "./screenshotPlayground.js";
import { staticPlaygroundScreenshots } from "./screenshotStaticPlayground.js";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumFlags } = require("./browserBuild.cjs") as { chromiumFlags: string[] };

const docs = path.join(path.resolve(__dirname, ".."), "docs");
const WIDTH = 320;

async function main(): Promise<void> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "spellrun-screenshot-"));
  // Bulk runs appear a few at a time, so the running state shows partial progress.
  const emulator = await startEmulator({
    timeScale: 1,
    faults: { lazyBulk: { groupVisibleAfterMs: 400, runsPerPoll: 6 } },
  });
  let server: http.Server | undefined;
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_BIN || "/usr/bin/chromium",
    args: chromiumFlags,
  });
  try {
    // The playground (the sheet and the pane side by side); `--playground-only` stops after it.
    await playgroundScreenshots(browser, {
      baseUrl: emulator.baseUrl,
      pollBaseUrl: emulator.pollBaseUrl,
      apiKey: emulator.apiKey,
    });
    // The static playground: a column filled to row 1,000, the guard's question reached by filling.
    await staticPlaygroundScreenshots(browser);
    if (process.argv.includes("--playground-only")) return;
    await bundleHarness(folder);
    server = await serveHarness(
      folder,
      harnessPage({
        baseUrl: emulator.baseUrl,
        pollBaseUrl: emulator.pollBaseUrl,
        apiKey: emulator.apiKey,
      })
    );
    const { port } = server.address() as AddressInfo;
    const context = await browser.newContext({
      viewport: { width: WIDTH, height: 600 },
      deviceScaleFactor: 2,
    });
    const tab = await context.newPage();
    tab.on("pageerror", (error) => console.error("page error:", error.message));
    await tab.goto(`http://127.0.0.1:${port}/`);
    await tab.waitForFunction(
      () => (window as unknown as { __harness?: { ready: boolean } }).__harness?.ready === true,
      null,
      { timeout: 30_000 }
    );

    // Settings.
    await tab.click("#tab-settings");
    await tab.waitForTimeout(300);
    await tab.click("#test-connection");
    await tab.waitForFunction(
      () =>
        /Connected|refused|answer/.test(
          document.querySelector("#settings-status")?.textContent ?? ""
        ),
      null,
      { timeout: 10_000 }
    );
    await tab.screenshot({ path: path.join(docs, "taskpane-settings.png"), fullPage: true });

    // Running.
    await tab.click("#tab-run");
    await tab.locator("#spell-id").click();
    await tab.keyboard.type("summarize");
    await tab.keyboard.press("Tab");
    await tab.click("#use-selection");
    await tab.waitForFunction(
      () => /will start/.test(document.querySelector("#plan-summary")?.textContent ?? ""),
      null,
      { timeout: 10_000 }
    );
    await tab.click("#run");
    await tab.waitForFunction(
      () => {
        const text = document.querySelector("#progress-text")?.textContent ?? "";
        const done = Number(/(\d+) \/ \d+ done/.exec(text)?.[1] ?? 0);
        return done >= 12 && done <= 30;
      },
      null,
      { timeout: 30_000, polling: 50 }
    );
    await tab.waitForTimeout(300); // the progress bar's transition
    await tab.screenshot({ path: path.join(docs, "taskpane-running.png"), fullPage: true });

    // Finished.
    await tab
      .waitForFunction(
        () => /^Finished/.test(document.querySelector("#progress-text")?.textContent ?? ""),
        null,
        { timeout: 90_000 }
      )
      .catch(async (error: unknown) => {
        console.error("progress when giving up:", await tab.textContent("#progress"));
        throw error;
      });
    await tab.waitForTimeout(800); // the progress bar's transition
    await tab.screenshot({ path: path.join(docs, "taskpane-finished.png"), fullPage: true });

    // The overwrite prompt: a second block whose right-hand column holds the user's notes.
    await screenshotPrompt(tab, path.join(docs, "taskpane-overwrite.png"), {
      at: "H1",
      rows: [
        ["text", "Notes"],
        ["Lid does not close.", "called back"],
        ["Five stars, would buy again.", ""],
        ["Too loud at night.", "refund sent"],
      ],
      select: "Reviews!H1:H4",
      shown: "#placement-box",
    });

    // The header row prompt: a block selected without its header row (the names are just above).
    await screenshotPrompt(tab, path.join(docs, "taskpane-header-row.png"), {
      at: "P1",
      rows: [
        ["text", "language"],
        ["Lid does not close.", "en"],
        ["Cinq étoiles, je rachèterais.", "fr"],
        ["Demasiado ruidoso de noche.", "es"],
      ],
      select: "Reviews!P2:Q4",
      shown: "#header-above",
    });

    // The spending guard: a column filled down past the threshold; the pane asks, a cell waits.
    // A context of its own: the runs above left remembered results in the page's storage.
    const guardContext = await browser.newContext({
      viewport: { width: WIDTH, height: 600 },
      deviceScaleFactor: 2,
    });
    const guard = await guardContext.newPage();
    guard.on("pageerror", (error) => console.error("page error:", error.message));
    await guard.goto(`http://127.0.0.1:${port}/?guard`);
    await guard.waitForFunction(
      () =>
        !(document.querySelector("#spending") as HTMLElement | null)?.hidden &&
        document.querySelector("#cell-card") !== null,
      null,
      { timeout: 30_000 }
    );
    await guard.waitForTimeout(300);
    await guard.locator("#spending").screenshot({ path: path.join(docs, "guard-question.png") });
    await guard
      .locator("#cell-card")
      .screenshot({ path: path.join(docs, "guard-waiting-cell.png") });

    // A resumable job: the harness stores an unfinished bulk before the pane opens.
    const resumable = await context.newPage();
    resumable.on("pageerror", (error) => console.error("page error:", error.message));
    await resumable.goto(`http://127.0.0.1:${port}/?resumable`);
    await resumable.waitForFunction(
      () => !(document.querySelector("#resume") as HTMLElement | null)?.hidden,
      null,
      { timeout: 30_000 }
    );
    await resumable.waitForTimeout(300);
    await resumable.screenshot({
      path: path.join(docs, "taskpane-resumable.png"),
      fullPage: true,
    });

    // The plan's early warning: the rows of that unfinished bulk selected again.
    await resumable.click("#use-selection");
    await resumable.waitForFunction(
      () => /unfinished bulk/.test(document.querySelector("#plan-summary")?.textContent ?? ""),
      null,
      { timeout: 10_000 }
    );
    await resumable.waitForTimeout(300);
    await resumable.screenshot({
      path: path.join(docs, "taskpane-unfinished-warning.png"),
      fullPage: true,
    });
    console.log(
      "Saved docs/taskpane-settings.png, docs/taskpane-running.png, docs/taskpane-finished.png, " +
        "docs/taskpane-overwrite.png, docs/taskpane-header-row.png, docs/taskpane-resumable.png, " +
        "docs/taskpane-unfinished-warning.png, docs/guard-question.png, docs/guard-waiting-cell.png " +
        `(${WIDTH} px wide).`
    );
  } finally {
    await browser.close();
    server?.close();
    await emulator.close();
    await rm(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/** A block the harness puts on the Reviews sheet and selects, for one of the pane's prompts. */
interface PromptBlock {
  /** Top-left cell of the values. */
  at: string;
  rows: string[][];
  /** The selection Use selection reads. */
  select: string;
  /** The element that shows the prompt. */
  shown: string;
}

/** Puts a block on the sheet, selects it, clicks Use selection and screenshots the prompt. */
async function screenshotPrompt(tab: Page, file: string, block: PromptBlock): Promise<void> {
  await tab.evaluate(({ at, rows, select }) => {
    const { workbook } = (
      window as unknown as {
        __harness: {
          workbook: {
            setValues(sheet: string, at: string, rows: string[][]): void;
            select(address: string): void;
          };
        };
      }
    ).__harness;
    workbook.setValues("Reviews", at, rows);
    workbook.select(select);
  }, block);
  await tab.click("#use-selection");
  await tab.waitForFunction(
    (selector) => !(document.querySelector(selector) as HTMLElement | null)?.hidden,
    block.shown,
    { timeout: 10_000 }
  );
  await tab.waitForTimeout(300);
  await tab.screenshot({ path: file, fullPage: true });
}
