import type { Page } from "playwright-core";
import {
  clickCell,
  openStaticPlayground,
  shown,
  typeInCell,
  type OpenPlayground,
  until,
  openReadyPage,
} from "./support/staticPlayground.js";
import { activeCell, goTo, modelCell, modelSelection } from "./support/gridPage.js";

/**
 * Edits in the static playground's grid as Excel does them, with the mouse and the keyboard in
 * Chromium: a copied cell pasted into a larger selection, a long text in a cell, and undo after
 * the grid's block moved far away and back.
 */

/** A row's height in the page, in pixels. */
function rowHeight(page: Page, address: string): Promise<number> {
  return page
    .locator(`.jss_worksheet:visible td[data-cell="${address}"]`)
    .evaluate((cell) => (cell.parentElement as HTMLElement).getBoundingClientRect().height);
}

describe("Edits in the static playground's grid (Chromium)", () => {
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

  // Excel pastes a copied range into a selected range that is a multiple of its size by
  // repeating it over the selection, each copy's relative references adjusted to where it lands
  // (one copied cell pasted into C3:C6 is the formula four times, reading rows 3 to 6), as the
  // fill handle would; it never pastes the copy's values.
  it("should paste one copied formula cell into each cell of a selected range, its references moved per cell", async () => {
    await typeInCell(page, "C2", "=LEN(A2)");
    await clickCell(page, "C2");
    await page.keyboard.press("Control+c");
    await clickCell(page, "C3");
    await page.keyboard.down("Shift");
    await clickCell(page, "C6");
    await page.keyboard.up("Shift");
    await page.keyboard.press("Control+v");
    await until(
      page,
      "the pasted formulas",
      async () => (await modelCell(page, "Reviews", "C6")).formula === "=LEN(A6)"
    );
    for (const row of [3, 4, 5, 6]) {
      expect((await modelCell(page, "Reviews", `C${row}`)).formula).toBe(`=LEN(A${row})`);
      const text = (await modelCell(page, "Reviews", `A${row}`)).value;
      expect(await shown(page, `C${row}`)).toBe(String(text.length));
    }
  }, 60_000);

  // Excel keeps a row's height unless its cells wrap text (and a row is at most 409 points
  // high): a long text overflows or is cut, and a click below selects the cell under the pointer.
  it("should keep a row's height under a long text, and select the clicked cell below it", async () => {
    await page.locator(".jtabs-headers > div", { hasText: "Sheet2" }).click();
    await clickCell(page, "H8");
    await page.keyboard.type("x");
    await page.keyboard.insertText("long text ".repeat(300));
    await page.keyboard.press("Enter");
    await until(
      page,
      "the long text in the model",
      async () => (await modelCell(page, "Sheet2", "H8")).value.length > 3_000
    );
    expect(await rowHeight(page, "H8")).toBe(await rowHeight(page, "H7"));
    await clickCell(page, "F12");
    expect(await activeCell(page)).toBe("F12");
    expect(await modelSelection(page)).toBe("Sheet2!F12");
  }, 60_000);

  // Excel's undo takes back a person's edits in order wherever they are; scrolling far away and
  // back (the grid's block moves) loses none of them.
  it("should undo an edit with Ctrl+Z after going to row 50,000 and back, and redo it with Ctrl+Y", async () => {
    await typeInCell(page, "C3", "first");
    await typeInCell(page, "C4", "second");
    await goTo(page, "C50000");
    await goTo(page, "C5");
    await page.keyboard.press("Control+z");
    await until(
      page,
      "C4 undone",
      async () => (await modelCell(page, "Reviews", "C4")).value === ""
    );
    expect(await shown(page, "C4")).toBe("");
    expect((await modelCell(page, "Reviews", "C3")).value).toBe("first");
    await page.keyboard.press("Control+z");
    await until(
      page,
      "C3 undone",
      async () => (await modelCell(page, "Reviews", "C3")).value === ""
    );
    expect(await shown(page, "C3")).toBe("");
    await page.keyboard.press("Control+y");
    await until(
      page,
      "C3 redone",
      async () => (await modelCell(page, "Reviews", "C3")).value === "first"
    );
    expect(await shown(page, "C3")).toBe("first");
    expect((await modelCell(page, "Reviews", "C4")).value).toBe("");
  }, 60_000);
});
