import type { Page } from "playwright-core";
import {
  clickCell,
  type OpenPlayground,
  until,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";
import { activeCell, modelCell } from "./support/gridPage.js";

const SHEET = "Reviews";

/** The number of the first row the sheet's view shows (below the column headers). */
function firstVisibleRow(page: Page): Promise<number> {
  return page.locator(".jss_worksheet:visible").evaluate((table) => {
    const viewTop = table.closest(".playground-sheet")!.getBoundingClientRect().top;
    const headerBottom = Math.max(
      viewTop,
      table.querySelector("thead")!.getBoundingClientRect().bottom
    );
    const heads = [...table.querySelectorAll<HTMLElement>("tbody tr > td:first-child")];
    const first = heads.find((head) => {
      const box = head.getBoundingClientRect();
      return box.height > 0 && box.bottom > headerBottom + 2;
    });
    return Number(first?.textContent ?? NaN);
  });
}

/**
 * Leaving the static playground's Name Box with Escape, and clicking or typing in it (Chromium,
 * the mouse and the keyboard): as in Excel, Escape gives the keyboard back to the active cell, so
 * what is typed next goes there, and the view stays where it is while the box is clicked or typed
 * into (it moves only when Enter goes somewhere).
 */
describe("Leaving the static playground's Name Box (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  const box = () => page.locator("#formula-address");
  /**
   * A person's click on the Name Box (the mouse at its place: Playwright's own click first scrolls
   * the element into view, which, in the sticky bars, moves the sheet by itself).
   */
  const clickBox = async () => {
    const at = await box().boundingBox();
    if (!at) throw new Error("no Name Box");
    await page.mouse.click(at.x + 10, at.y + at.height / 2);
  };
  const valueAt = async (address: string) => (await modelCell(page, SHEET, address)).value;

  it("should put what is typed after Escape in the Name Box into the active cell", async () => {
    await clickCell(page, "C5");
    await until(page, "C5 active", async () => (await activeCell(page)) === "C5");
    await clickBox();
    await page.keyboard.press("Escape");
    await page.keyboard.type("wone");
    await page.keyboard.press("Enter");
    await until(page, "wone in C5", async () => (await valueAt("C5")) === "wone", 3_000);

    // After a text that is no reference, and Escape.
    await clickCell(page, "C7");
    await until(page, "C7 active", async () => (await activeCell(page)) === "C7");
    await clickBox();
    await page.keyboard.type("hello world");
    await page.keyboard.press("Enter");
    await until(page, "the message", async () =>
      (await page.locator("#formula-message").innerText()).includes("hello world")
    );
    await page.keyboard.press("Escape");
    await until(page, "the address again", async () => (await box().innerText()) === "C7");
    await page.keyboard.type("wthree");
    await page.keyboard.press("Enter");
    await until(page, "wthree in C7", async () => (await valueAt("C7")) === "wthree", 3_000);
  }, 60_000);

  // Tab leaves the Name Box as Escape does: what is typed next goes into the active cell, of any
  // script (Chromium sends "Ж" as text without a keydown of its key: the grid's own field must
  // have the keyboard, and Tab had given it to the grid's outer element, where "Ж" was lost).
  it("should put what is typed after Tab in the Name Box into the active cell", async () => {
    await clickCell(page, "C9");
    await until(page, "C9 active", async () => (await activeCell(page)) === "C9");
    await clickBox();
    await page.keyboard.press("Tab");
    // The grid has the keyboard: an arrow moves the active cell (not a caret in a field).
    await page.keyboard.press("ArrowDown");
    await until(page, "C10 active", async () => (await activeCell(page)) === "C10", 3_000);
    await page.keyboard.type("Жtab");
    await page.keyboard.press("Enter");
    await until(page, "Жtab in C10", async () => (await valueAt("C10")) === "Жtab", 3_000);
    expect(await valueAt("C9")).not.toBe("Жtab");
  }, 60_000);

  it("should keep the view where it is while the Name Box is clicked and typed into", async () => {
    const view = await page.locator(".playground-sheet").boundingBox();
    if (!view) throw new Error("no sheet view");
    await page.mouse.move(view.x + 300, view.y + 300);
    await page.mouse.wheel(0, 700); // seven notches, 21 rows
    await until(page, "the view below row 15", async () => (await firstVisibleRow(page)) > 15);
    const top = await firstVisibleRow(page);
    await clickCell(page, "B40");
    await until(page, "B40 active", async () => (await activeCell(page)) === "B40");
    expect(await firstVisibleRow(page)).toBe(top);

    await clickBox();
    await page.waitForTimeout(200);
    expect(await firstVisibleRow(page))
      .withContext("after the click on the Name Box")
      .toBe(top);
    await page.keyboard.type("D");
    await page.waitForTimeout(200);
    expect(await firstVisibleRow(page))
      .withContext("after a character typed")
      .toBe(top);
    await page.keyboard.press("Escape");
    await page.waitForTimeout(200);
    expect(await firstVisibleRow(page))
      .withContext("after Escape")
      .toBe(top);
    await page.keyboard.type("wfive");
    await page.keyboard.press("Enter");
    await until(page, "wfive in B40", async () => (await valueAt("B40")) === "wfive", 3_000);
    expect(await firstVisibleRow(page))
      .withContext("after typing in B40")
      .toBe(top);
  }, 60_000);
});
