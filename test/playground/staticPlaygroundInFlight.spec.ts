import type { Page } from "playwright-core";
import {
  newPlaygroundPage,
  openStaticPlayground,
  shown,
  typeInCell,
  until,
  type OpenPlayground,
} from "./support/staticPlayground.js";

/**
 * A cell whose input goes away and comes back while its run is going watches that run again:
 * Excel cancels the call when the input changes, and the run is kept 10 s for it. In Chromium,
 * with the playground's slow pace ("About a minute").
 */
type PageWindow = {
  __emulator: {
    stats: { runsCreated: number; bulkRunsCreated: number; requests: Record<string, number> };
  };
};

/** Runs the page's emulator started since the page loaded: single and bulk rows. */
function runsStarted(page: Page): Promise<number> {
  return page.evaluate(() => {
    const { stats } = (window as unknown as PageWindow).__emulator;
    return stats.runsCreated + stats.bulkRunsCreated;
  });
}

describe("SPELL.RUN cells whose input changes back while they run (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });
  beforeEach(async () => {
    page = await newPlaygroundPage(open.browser);
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${open.served.origin}/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  }, 90_000);
  afterEach(async () => {
    await page?.close();
  }, 30_000);

  it("should not start the same run again when an input is changed and changed back", async () => {
    await page.locator("#playground-pace").selectOption("minute");
    await typeInCell(page, "G12", "Solo in flight");
    await typeInCell(page, "F12", '=SPELL.RUN("sentiment", SPELL.INPUTS("text", G12), "label")');
    await until(page, "the first run started", async () => (await runsStarted(page)) === 1);
    await page.waitForTimeout(1_000);
    await typeInCell(page, "G12", "Solo edited");
    await until(page, "the edited run started", async () => (await runsStarted(page)) === 2);
    await page.waitForTimeout(1_000);
    await typeInCell(page, "G12", "Solo in flight");
    await page.waitForTimeout(1_500);
    expect(await shown(page, "F12")).toMatch(/#BUSY!/);
    // The input's run is watched again: two runs for two inputs, not three.
    expect(await runsStarted(page)).toBe(2);
    expect(open.errors).toEqual([]);
  }, 60_000);
});
