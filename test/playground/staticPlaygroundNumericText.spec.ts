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
 * The trial's formulas in Chromium: numbers typed as 50%, 1,234, $12.50 are numbers shown as
 * typed, arithmetic converts numeric text, H1# reads a spill range, and a SPELL.RUN reading a
 * running cell waits for it.
 */
describe("Numeric text and spill references in the page (Chromium)", () => {
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

  it("should store typed 50%, 1,234 and $12.50 as numbers shown as typed, and compute with them", async () => {
    await typeInCell(page, "K41", "50%");
    await typeInCell(page, "L41", "1,234");
    await typeInCell(page, "M41", "$12.50");
    await typeInCell(page, "N41", "=K41*2+L41+M41");
    await typeInCell(page, "O41", '="50%"*2');
    await until(page, "N41's sum", async () => (await shown(page, "N41")) === "1247.5");
    expect(await shown(page, "K41")).toBe("50%");
    expect(await shown(page, "L41")).toBe("1,234");
    expect(await shown(page, "M41")).toBe("$12.50");
    expect(await shown(page, "O41")).toBe("1");
    await typeInCell(page, "K43", "=SEQUENCE(4)");
    await typeInCell(page, "L43", "=SUM(K43#)");
    await until(page, "L43's sum", async () => (await shown(page, "L43")) === "10");
    expect(open.errors).toEqual([]);
  }, 60_000);

  it("should show #BUSY! and start nothing for a SPELL.RUN reading a cell whose run is going", async () => {
    await page.locator("#playground-pace").selectOption("minute");
    await typeInCell(page, "G50", "Great product");
    await typeInCell(page, "H50", '=SPELL.RUN("sentiment", SPELL.INPUTS("text", G50), "label")');
    await typeInCell(page, "I50", '=SPELL.RUN("sentiment", SPELL.INPUTS("text", H50), "label")');
    await until(page, "H50's run", async () => (await runsStarted(page)) === 1);
    await page.waitForTimeout(1_500);
    // Excel waits for H50: I50 looks busy (not a red #VALUE!) and has sent nothing yet.
    expect(await shown(page, "H50")).toMatch(/#BUSY!/);
    expect(await shown(page, "I50")).toMatch(/#BUSY!/);
    expect(await page.locator('td.playground-busy[data-cell="I50"]').count()).toBe(1);
    expect(await runsStarted(page)).toBe(1);
    expect(open.errors).toEqual([]);
  }, 60_000);
});

type PageWindow = { __emulator: { stats: { runsCreated: number; bulkRunsCreated: number } } };

/** Runs the page's emulator started since the page loaded: single and bulk rows. */
function runsStarted(page: Page): Promise<number> {
  return page.evaluate(() => {
    const { stats } = (window as unknown as PageWindow).__emulator;
    return stats.runsCreated + stats.bulkRunsCreated;
  });
}
