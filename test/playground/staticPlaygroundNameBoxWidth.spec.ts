import type { Page } from "playwright-core";
import {
  type OpenPlayground,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";

/**
 * Excel's Name Box has a fixed width: what is typed there scrolls inside it on one line, and
 * neither the formula bar beside it nor the grid below it moves, however long the text.
 */
describe("The static playground's Name Box width (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  /** Where the Name Box, the bar's text box and the grid are. */
  const layout = () =>
    page.evaluate(() => {
      const box = (selector: string) => {
        const rect = document.querySelector(selector)?.getBoundingClientRect();
        return rect && { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
      };
      return {
        nameBox: box("#formula-address"),
        content: box("#formula-content"),
        grid: box(".playground-sheet"),
      };
    });

  it("should keep its width while a long reference is typed, and one line after a long bad one", async () => {
    const before = await layout();
    await page.locator("#formula-address").click();
    await page.keyboard.type("Reviews!A1:B37");
    expect(await layout())
      .withContext("typing a long reference")
      .toEqual(before);
    expect(await page.locator("#formula-address").evaluate((box) => box.scrollLeft))
      .withContext("scrolled to the caret at its end")
      .toBeGreaterThan(0);
    await page.keyboard.press("Escape");

    await page.locator("#formula-address").click();
    await page.keyboard.insertText("no such place ".repeat(22));
    await page.keyboard.press("Enter");
    expect(await page.locator("#formula-message").innerText()).toMatch(/^Reference isn't valid/);
    expect(await layout())
      .withContext("a 300-character bad reference")
      .toEqual(before);
    await page.keyboard.press("Escape");
    expect(open.errors).toEqual([]);
  }, 60_000);
});
