import type { Page } from "playwright-core";
import {
  openStaticPlayground,
  shown,
  typeInCell,
  type OpenPlayground,
  until,
  openReadyPage,
} from "./support/staticPlayground.js";

/**
 * What the static playground's demo shows a newcomer, with the mouse and the keyboard: the first
 * thing to try without opening anything, spells whose pace can be chosen, negative reviews found,
 * running cells grey as Excel's #BUSY!, its own error banner, and a question before leaving while
 * runs are in flight.
 */

describe("The static playground's demo (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });
  beforeEach(async () => {
    page = await openReadyPage(open);
  }, 90_000);
  afterEach(async () => {
    await page?.close();
  }, 30_000);

  it("should show the first thing to try without opening anything", async () => {
    const first = page.locator("#first-try");
    expect(await first.isVisible()).toBeTrue();
    expect(await first.innerText()).toContain('=SPELL.RUN("sentiment"');
    // It is not inside the collapsed "More to try" banner.
    expect(await page.locator("details #first-try").count()).toBe(0);
  }, 30_000);

  it("should find the demo's negative reviews with the sentiment spell", async () => {
    await typeInCell(page, "E1", '=SPELL.BULK("sentiment", A1:A37, "label")');
    await until(page, "36 labels", async () => {
      const labels = await page.locator(".jss_worksheet:visible td[data-x='4']").allInnerTexts();
      return labels.filter((text) => /^(positive|negative|neutral)$/.test(text)).length === 36;
    });
    const labels = await page.locator(".jss_worksheet:visible td[data-x='4']").allInnerTexts();
    expect(labels.filter((text) => text === "negative").length).toBeGreaterThanOrEqual(5);
    // "The strap broke after a week." is row 3.
    expect(await shown(page, "E3")).toBe("negative");
  }, 60_000);

  it("should run spells at the pace chosen in the page, showing running rows as grey #BUSY!", async () => {
    await page.locator("#playground-pace").selectOption("variable");
    await typeInCell(page, "E1", '=SPELL.BULK("sentiment", A1:A37, "label")');
    // Some rows answer within seconds, others take up to a minute and a half: a page slowed by
    // a loaded machine (CI's two cores) may show its first answer after 40 s, and the slowest
    // rows still run at 70 s.
    await until(
      page,
      "a finished row beside running ones",
      async () => {
        const texts = await page.locator(".jss_worksheet:visible td[data-x='4']").allInnerTexts();
        return (
          texts.some((text) => /^(positive|negative|neutral)$/.test(text)) &&
          texts.includes("#BUSY!")
        );
      },
      70_000
    );
    const busy = page.locator(".jss_worksheet:visible td.playground-busy").first();
    expect(await busy.innerText()).toBe("#BUSY!");
    expect(await busy.getAttribute("title")).toMatch(/^Still running/);
    const colour = await busy.evaluate((cell) => getComputedStyle(cell).color);
    expect(colour).toBe("rgb(138, 136, 134)");
    expect(await page.locator(".jss_worksheet:visible td.playground-error").count()).toBe(0);
  }, 100_000);

  it("should ask before the page is left while runs are in flight", async () => {
    await page.locator("#playground-pace").selectOption("minute");
    await typeInCell(page, "C2", '=SPELL.RUN("summarize", SPELL.INPUTS("text", A2), "summary")');
    await until(page, "C2 running", async () => (await shown(page, "C2")) === "#BUSY!");
    await until(page, "the run started", () =>
      page.evaluate(
        () =>
          (
            window as unknown as { __emulator: { store: { inFlight(): number } } }
          ).__emulator.store.inFlight() > 0
      )
    );
    const asked = new Promise<string>((resolve) =>
      page.once("dialog", (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      })
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe("beforeunload");
  }, 60_000);

  it("should show an uncaught error in the page's own banner, the page still working", async () => {
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error("a made-up failure");
      });
    });
    const banner = page.locator("#playground-errors");
    await banner.waitFor({ state: "visible", timeout: 5_000 });
    expect(await banner.innerText()).toContain("a made-up failure");
    await page.getByRole("button", { name: "Dismiss" }).click();
    expect(await banner.isVisible()).toBeFalse();
    await typeInCell(page, "C2", "=1+2");
    expect(await shown(page, "C2")).toBe("3");
  }, 30_000);
});
