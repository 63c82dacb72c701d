import type { Page } from "playwright-core";
import {
  clickCell,
  openReadyPage,
  openStaticPlayground,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";

/**
 * Each sheet's view in the static playground, as Excel keeps it: a sheet has its own scroll
 * position (a view per sheet), a workbook reopens on the sheet, selection and scroll it was saved
 * with (ISO/IEC 29500-1 §18.3.1.87 `sheetView`: "A single sheet view definition", with its
 * `topLeftCell` and `selection`, saved in the file), and a new sheet's columns all have the
 * default width. With the mouse, the wheel and the keyboard, in Chromium.
 */

type PageWindow = {
  __playground: { workbook: { selection: string }; grid: { activeSheet(): string } };
};

/** Within 3 px of `expected` (the rows' measured height may settle by a pixel or two). */
function near(expected: number): jasmine.AsymmetricMatcher<number> {
  return {
    asymmetricMatch: (actual: number) => Math.abs(actual - expected) <= 3,
    jasmineToString: () => `within 3 px of ${expected}`,
  };
}

function scrollTop(page: Page): Promise<number> {
  return page.locator(".playground-sheet").evaluate((sheet) => sheet.scrollTop);
}

/** The model's selection (what `getSelectedRange()` answers) and the sheet shown. */
function selected(page: Page): Promise<{ selection: string; sheet: string }> {
  return page.evaluate(() => {
    const { workbook, grid } = (window as unknown as PageWindow).__playground;
    return { selection: workbook.selection, sheet: grid.activeSheet() };
  });
}

/**
 * Clicks with the mouse where an element is on screen, as a person does (a locator's click
 * would first scroll the sheet's view to the tabs' place in it: they stick below the bars).
 */
async function clickOnScreen(page: Page, selector: string, name?: string): Promise<void> {
  const box = await page.locator(selector, name ? { hasText: name } : {}).boundingBox();
  if (!box) throw new Error(`no ${selector} ${name ?? ""}`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

function chooseTab(page: Page, name: string): Promise<void> {
  return clickOnScreen(page, ".jtabs-headers > div", name);
}

/** Turns the mouse wheel over the sheet, `notches` notches down (three rows each). */
async function wheelDown(page: Page, notches: number): Promise<void> {
  const view = await page.locator(".playground-sheet").boundingBox();
  if (!view) throw new Error("no sheet view");
  await page.mouse.move(view.x + view.width / 2, view.y + view.height / 2);
  for (let notch = 0; notch < notches; notch++) await page.mouse.wheel(0, 100);
  await page.waitForTimeout(200);
}

/** The widths (px) of the shown sheet's first column headers, A to E. */
function columnWidths(page: Page): Promise<number[]> {
  return page
    .locator(".jss_worksheet:visible thead td[data-x]")
    .evaluateAll((cells) =>
      cells.slice(0, 5).map((cell) => Math.round(cell.getBoundingClientRect().width))
    );
}

describe("Each sheet's view in the static playground (Chromium)", () => {
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
    // A reload must not ask here (nothing runs): a question would be answered "Leave".
    page.on("dialog", (dialog) => void dialog.accept());
  }, 90_000);
  afterEach(async () => {
    await page?.close();
  }, 30_000);

  it("should keep each sheet's own scroll position across tab changes (Excel keeps a view per sheet), and open a new sheet with every column of the default width", async () => {
    await wheelDown(page, 20);
    const reviews = await scrollTop(page);
    expect(reviews).toBeGreaterThan(1000);

    await chooseTab(page, "Sheet2");
    expect(await scrollTop(page)).toBe(0);
    await wheelDown(page, 5);
    const sheet2 = await scrollTop(page);
    expect(sheet2).toBeGreaterThan(0);
    expect(sheet2).toBeLessThan(reviews);

    await chooseTab(page, "Reviews");
    expect(await scrollTop(page)).toEqual(near(reviews));
    await chooseTab(page, "Sheet2");
    expect(await scrollTop(page)).toEqual(near(sheet2));

    // Only the demo's Reviews has wide columns: Sheet2's and a new sheet's are all alike.
    const sheet2Widths = await columnWidths(page);
    expect(new Set(sheet2Widths).size).withContext(`${sheet2Widths}`).toBe(1);
    await clickOnScreen(page, ".jtabs-add");
    await until(page, "the new sheet shown", async () => (await selected(page)).sheet === "Sheet3");
    expect(await scrollTop(page)).toBe(0);
    expect(await columnWidths(page)).toEqual(sheet2Widths);
    expect(open.errors).toEqual([]);
  }, 60_000);

  it("should reopen the workbook on the sheet, selection and scroll it was left with, each sheet's own", async () => {
    // Reviews: B5:C8 selected with the mouse, then the view scrolled away from it.
    await clickCell(page, "B5");
    await page.keyboard.down("Shift");
    await clickCell(page, "C8");
    await page.keyboard.up("Shift");
    await wheelDown(page, 20);
    const reviewsTop = await scrollTop(page);
    // Sheet2: scrolled a little, D12 active; a new sheet made, and Sheet2 shown again.
    await chooseTab(page, "Sheet2");
    await wheelDown(page, 2);
    await clickCell(page, "D12");
    const sheet2Top = await scrollTop(page);
    await clickOnScreen(page, ".jtabs-add");
    await until(page, "the new sheet shown", async () => (await selected(page)).sheet === "Sheet3");
    await chooseTab(page, "Sheet2");
    expect(await selected(page)).toEqual({ selection: "Sheet2!D12", sheet: "Sheet2" });
    await until(page, "the document saved", async () =>
      /^Saved/.test(await page.locator("#playground-saved").innerText())
    );
    await page.waitForTimeout(400); // the view is saved 150 ms after it changed

    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    expect(await selected(page)).toEqual({ selection: "Sheet2!D12", sheet: "Sheet2" });
    expect(await page.locator("#formula-address").innerText()).toBe("D12");
    expect(await scrollTop(page)).toEqual(near(sheet2Top));
    await chooseTab(page, "Reviews");
    expect(await selected(page)).toEqual({ selection: "Reviews!B5:C8", sheet: "Reviews" });
    expect(await scrollTop(page)).toEqual(near(reviewsTop));
    // What is typed goes into the active cell kept (B5), not A1.
    await page.keyboard.press("ArrowUp");
    expect((await selected(page)).selection).toBe("Reviews!B4");
    // A sheet made with "+" reopens with the default widths too (it had the demo's 280 px A).
    await chooseTab(page, "Sheet3");
    const widths = await columnWidths(page);
    expect(new Set(widths).size).withContext(`${widths}`).toBe(1);
    expect(open.errors).toEqual([]);
  }, 90_000);
});
