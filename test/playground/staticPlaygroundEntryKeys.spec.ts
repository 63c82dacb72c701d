import type { Page } from "playwright-core";
import {
  clickCell,
  shown,
  type OpenPlayground,
  until,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";
import { activeCell, modelCell } from "./support/gridPage.js";

/**
 * Excel's Ctrl+Enter (Microsoft, "Keyboard shortcuts in Excel"): the entry is written and the
 * active cell stays, in the cell and in the formula bar; Ctrl+Shift+Enter stays as well. Alt+Enter
 * "starts a new line in the same cell": the edit goes on, with a line break in its text.
 */
describe("Ctrl+Enter and Alt+Enter in the static playground (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  const edited = () =>
    page.evaluate(() => document.querySelector(".jss_worksheet td.editor") !== null);

  it("should write the entry and stay on the cell, in the cell and in the formula bar", async () => {
    await clickCell(page, "F4");
    const box = await page.locator("#formula-content").boundingBox();
    if (!box) throw new Error("no formula bar");
    await page.mouse.click(box.x + box.width - 4, box.y + box.height / 2);
    await page.keyboard.type("=1+1");
    await page.keyboard.press("Control+Enter");
    await until(page, "F4 written", async () => (await shown(page, "F4")) === "2");
    expect(await activeCell(page)).toBe("F4");
    expect(await edited()).toBe(false);

    await clickCell(page, "G4");
    await page.keyboard.type("=5+5");
    await page.keyboard.press("Control+Enter");
    await until(page, "G4 written", async () => (await shown(page, "G4")) === "10");
    expect(await activeCell(page)).toBe("G4");
    expect(await edited()).toBe(false);

    // The keyboard is the grid's again: typing edits G4 anew; Ctrl+Shift+Enter stays too.
    await page.keyboard.type("x");
    await page.keyboard.press("Control+Shift+Enter");
    await until(
      page,
      "G4 typed over",
      async () => (await modelCell(page, "Reviews", "G4")).value === "x"
    );
    expect(await activeCell(page)).toBe("G4");
    expect(open.errors).toEqual([]);
  }, 60_000);

  it("should put a line break in the cell on Alt+Enter, the edit going on until Enter", async () => {
    await clickCell(page, "G6");
    await page.keyboard.type("x");
    await page.keyboard.press("Alt+Enter");
    expect(await edited())
      .withContext("still editing G6")
      .toBe(true);
    expect(await activeCell(page)).toBe("G6");
    await page.keyboard.type("y");
    await page.keyboard.press("Enter");
    await until(
      page,
      "G6 written",
      async () => (await modelCell(page, "Reviews", "G6")).value === "x\ny"
    );
    expect(await activeCell(page)).toBe("G7");
    expect((await modelCell(page, "Reviews", "G7")).value).toBe("");
    expect(open.errors).toEqual([]);
  }, 60_000);
});
