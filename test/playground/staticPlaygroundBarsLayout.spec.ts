import type { Page } from "playwright-core";
import {
  clickCell,
  typeInCell,
  type OpenPlayground,
  until,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";

/**
 * The static playground's bars above the grid stay as they are (Chromium, the mouse and the
 * keyboard): a message under the formula bar never moves the grid (Excel's formula bar keeps its
 * height), no scrolled cell shows beside the bar, and the saved-status line says the reopened
 * document is saved (Excel shows "Saved" for a workbook opened unchanged).
 */
describe("The static playground's formula bar and status line (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  /** Where the grid starts in the sheet's scrolled content (a scroll does not move it). */
  const gridTop = () =>
    page.evaluate(() => {
      const sheet = document.querySelector(".playground-sheet") as HTMLElement;
      const grid = document.querySelector("#grid") as HTMLElement;
      return grid.getBoundingClientRect().top - sheet.getBoundingClientRect().top + sheet.scrollTop;
    });
  const message = () => page.locator("#formula-message").innerText();

  it("should not move the grid when a message shows under the formula bar", async () => {
    await page.setViewportSize({ width: 900, height: 800 });
    await clickCell(page, "B2");
    const top = await gridTop();
    // The Name Box's message ("Reference isn't valid").
    await page.locator("#formula-address").click();
    await page.keyboard.type("not a reference");
    await page.keyboard.press("Enter");
    await until(page, "the Name Box's message", async () => (await message()) !== "");
    expect(await gridTop()).toBe(top);
    await page.keyboard.press("Escape");
    // A formula's long message ("There's a problem with this formula…"), wider than the view.
    await typeInCell(page, "E4", "=SUM(A1,,");
    await clickCell(page, "E4");
    await until(page, "the formula's message", async () => /problem/.test(await message()));
    expect(await gridTop()).toBe(top);
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 60_000);

  it("should show no scrolled cell beside the formula bar", async () => {
    const sheet = await page.locator(".playground-sheet").boundingBox();
    if (!sheet) throw new Error("no sheet view");
    await page.mouse.move(sheet.x + sheet.width / 2, sheet.y + sheet.height / 2);
    await page.mouse.wheel(0, 300);
    await until(page, "the sheet to scroll", async () =>
      page.locator(".playground-sheet").evaluate((element) => element.scrollTop > 100)
    );
    await page.waitForTimeout(300);
    const bars = await page.locator(".playground-bars").boundingBox();
    const inner = await page
      .locator(".playground-sheet")
      .evaluate((element) => element.getBoundingClientRect().left + element.clientWidth);
    if (!bars) throw new Error("no bars");
    const strips = [
      { x: sheet.x, width: bars.x - sheet.x },
      { x: bars.x + bars.width, width: inner - (bars.x + bars.width) },
    ];
    for (const strip of strips) {
      expect(strip.width).toBeGreaterThan(2);
      const clip = { x: strip.x, y: bars.y, width: strip.width, height: bars.height };
      const png = (await page.screenshot({ clip })).toString("base64");
      expect(await darkPixels(page, png))
        .withContext(`beside the bar at x=${strip.x}`)
        .toBe(0);
    }
  }, 60_000);

  it("should say the document is saved after a reload", async () => {
    const saved = () => page.locator("#playground-saved").innerText();
    await typeInCell(page, "F8", "kept");
    await until(page, "the document saved", async () => /^Saved/.test(await saved()));
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    expect(await saved()).toBe("Saved in this browser");
  }, 90_000);
});

/** How many pixels of a PNG (base64) are not white, read by the page's canvas. */
function darkPixels(page: Page, png: string): Promise<number> {
  return page.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no canvas");
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    let dark = 0;
    for (let index = 0; index < pixels.length; index += 4) {
      if (Math.min(pixels[index], pixels[index + 1], pixels[index + 2]) < 245) dark++;
    }
    return dark;
  }, png);
}
