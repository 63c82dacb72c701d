import type { Page } from "playwright-core";
import {
  clickCell,
  fillFarDownTo,
  openStaticPlayground,
  shown,
  typeInCell,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";

/**
 * The grid of the static playground at scale, with the mouse and the keyboard in Chromium: rows
 * are drawn only near the view, so a fill of 10,000 rows by the fill handle finishes and the
 * view jumps to far rows; the formula bar and the sheet tabs stay in place; a cell waiting for
 * the spending guard's answer looks as Excel shows a custom function still calculating.
 */

/** Whether an element is in the sheet's view (not scrolled away, not under the bars). */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((selector) => {
    const element = document.querySelector(selector);
    if (!element) return false;
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  }, selector);
}

describe("The static playground's grid at scale (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });
  beforeEach(async () => {
    page = await open.page.context().newPage();
    await page.goto(`${open.served.origin}/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  }, 90_000);
  afterEach(async () => {
    await page?.close();
  }, 30_000);

  it("should fill 10,000 rows with one drag of the fill handle, and jump to the last with Ctrl+Down", async () => {
    await typeInCell(page, "D2", "1");
    await clickCell(page, "D2");
    await fillFarDownTo(page, "D", 10_001);
    await until(page, "row 10,001", async () => (await shown(page, "D10001")) === "10000");
    // Only the rows near the view are in the page.
    expect(
      await page.locator(".jss_worksheet:visible tbody tr td[data-x='3']").count()
    ).toBeLessThan(400);
    const row5000 = await page.evaluate(() => {
      const workbook = (
        window as unknown as {
          __playground: { workbook: { cell(sheet: string, address: string): { value: unknown } } };
        }
      ).__playground.workbook;
      return workbook.cell("Reviews", "D5000").value;
    });
    expect(row5000).toBe(4999);
    // Ctrl+Up to the top, Ctrl+Down to the bottom: the view follows the active cell.
    await page.keyboard.press("Control+ArrowUp");
    await until(
      page,
      "D1 active",
      async () => (await page.locator("#formula-address").innerText()) === "D1"
    );
    await until(page, "D1 in view", () => inView(page, '.jss_worksheet td[data-cell="D1"]'));
    // Excel's rule: from the empty D1, Ctrl+Down stops at the data's first cell, then its last.
    await page.keyboard.press("Control+ArrowDown");
    await until(
      page,
      "D2 active",
      async () => (await page.locator("#formula-address").innerText()) === "D2"
    );
    await page.keyboard.press("Control+ArrowDown");
    const last = Number((await page.locator("#formula-address").innerText()).replace(/^D/, ""));
    expect(last).toBeGreaterThanOrEqual(10_001);
    await until(page, `D${last} in view`, () =>
      inView(page, `.jss_worksheet td[data-cell="D${last}"]`)
    );
    expect(open.errors).toEqual([]);
  }, 180_000);

  it("should keep the formula bar and the sheet tabs in place while the sheet scrolls", async () => {
    const bar = page.locator(".formula-bar");
    const tabs = page.locator(".jtabs-headers-container");
    const before = [await bar.boundingBox(), await tabs.boundingBox()];
    const sheet = await page.locator(".playground-sheet").boundingBox();
    if (!sheet) throw new Error("no sheet view");
    await page.mouse.move(sheet.x + sheet.width / 2, sheet.y + sheet.height / 2);
    await page.mouse.wheel(0, 800);
    await until(page, "the sheet to scroll", async () =>
      page.locator(".playground-sheet").evaluate((element) => element.scrollTop > 400)
    );
    expect([await bar.boundingBox(), await tabs.boundingBox()]).toEqual(before);
    expect(await inView(page, ".formula-bar")).toBeTrue();
    expect(await inView(page, ".jtabs-headers .jtabs-selected")).toBeTrue();
    // No sliver of scrolled-away cells shows between the bars and the tabs.
    const between = await page.evaluate(() => {
      const bars = document.querySelector(".playground-bars") as HTMLElement;
      const tabs = document.querySelector(".jtabs-headers-container") as HTMLElement;
      const top = bars.getBoundingClientRect().bottom;
      const bottom = tabs.getBoundingClientRect().top;
      const x = bars.getBoundingClientRect().left + 40;
      const hits: string[] = [];
      for (let y = Math.floor(top) - 1; y <= Math.ceil(bottom) + 1; y++) {
        const hit = document.elementFromPoint(x, y);
        if (hit?.closest(".jss_worksheet tbody")) hits.push(`${y}: ${hit.textContent ?? ""}`);
      }
      return hits;
    });
    expect(between).toEqual([]);
  }, 60_000);

  it("should show a cell waiting for the spending guard's answer as grey #BUSY!", async () => {
    await page.evaluate(async () => {
      const stored = JSON.parse(localStorage.getItem("spellrun.settings") ?? "{}") as object;
      localStorage.setItem("spellrun.settings", JSON.stringify({ ...stored, runsBeforeAsking: 2 }));
    });
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    // The workbook reopens where it was left (another spec may have left it far down): home.
    await page.keyboard.press("Control+Home");
    for (const row of [2, 3, 4, 5]) {
      await typeInCell(
        page,
        `C${row}`,
        `=SPELL.RUN("summarize", SPELL.INPUTS("text", A${row}), "summary")`
      );
    }
    await page.locator("#allow-these").waitFor({ state: "visible", timeout: 20_000 });
    const waiting = page.locator(
      ".jss_worksheet:visible td[data-x='2'][title^='Waiting for your OK']"
    );
    await until(page, "a waiting cell", async () => (await waiting.count()) > 0);
    const cell = waiting.first();
    expect(await cell.innerText()).toBe("#BUSY!");
    expect(
      await cell.evaluate((element) => element.classList.contains("playground-busy"))
    ).toBeTrue();
    expect(await cell.evaluate((element) => getComputedStyle(element).color)).toBe(
      "rgb(138, 136, 134)"
    );
  }, 90_000);
});
