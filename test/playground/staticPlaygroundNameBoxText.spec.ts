import type { Page } from "playwright-core";
import {
  type OpenPlayground,
  until,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";
import { activeCell, goTo, modelSelection } from "./support/gridPage.js";

/**
 * A text typed in the Name Box that is no reference (Chromium, the mouse and the keyboard): Excel
 * would make a name of it; names are not kept here, so the box says "Reference isn't valid" (as
 * the Go To dialog does), nothing moves, and the text stays selected to be corrected; Escape
 * shows the active cell's address again.
 */
describe("A text that is no reference in the static playground's Name Box (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  const box = () => page.locator("#formula-address");
  const message = () => page.locator("#formula-message").innerText();
  const selectedText = () => page.evaluate(() => window.getSelection()?.toString() ?? "");
  const scrolled = () =>
    page.locator(".jss_content:visible").evaluate((content) => content.scrollTop);

  it("should say the reference isn't valid, go nowhere, keep the text selected, and restore on Escape", async () => {
    await goTo(page, "C500");
    const top = await scrolled();
    for (const text of ["hello world", "not a ref!"]) {
      await box().click();
      await page.keyboard.type(text);
      await page.keyboard.press("Enter");
      await until(page, "the message", async () => (await message()).includes(text));
      expect(await message()).toBe(`Reference isn't valid: ${text}`);
      expect(await box().innerText()).toBe(text);
      expect(await selectedText()).toBe(text);
      expect(await modelSelection(page)).toBe("Reviews!C500");
      expect(await scrolled()).toBe(top);
      await page.keyboard.press("Escape");
      await until(page, "the address again", async () => (await box().innerText()) === "C500");
      expect(await message()).toBe("");
    }

    // Typed over the selected text, a good reference goes there.
    await box().click();
    await page.keyboard.type("oops");
    await page.keyboard.press("Enter");
    await until(page, "the message", async () => (await message()) !== "");
    await page.keyboard.type("B7");
    await page.keyboard.press("Enter");
    await until(page, "B7 active", async () => (await activeCell(page)) === "B7");
    expect(await modelSelection(page)).toBe("Reviews!B7");
    expect(await message()).toBe("");
  }, 60_000);
});
