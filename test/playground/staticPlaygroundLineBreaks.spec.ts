import type { Page } from "playwright-core";
import {
  cellSelector,
  clickCell,
  type OpenPlayground,
  until,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";
import { activeCell, modelCell } from "./support/gridPage.js";

/**
 * A cell's line breaks survive every edit, as in Excel (Microsoft, "Start a new line of text
 * inside a cell in Excel": "To start a new line of text at any specific point in a cell, double-
 * click the cell, click the location where you want to break the line, and then press Alt+Enter";
 * "Keyboard shortcuts in Excel": Alt+Enter "Start a new line in the same cell", Ctrl+Shift+U
 * "Expand or collapse the formula bar"). F2 and the formula bar edit the whole text, line breaks
 * and all; Alt+Enter puts one in the bar as in the cell; Enter commits and Esc cancels.
 */
describe("Line breaks in a cell of the static playground (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  const bar = () => page.locator("#formula-content");
  const value = async (address: string) => (await modelCell(page, "Reviews", address)).value;
  /** Clicks the bar's text box near its left edge (the edit starts there). */
  async function clickBar(): Promise<void> {
    const box = await bar().boundingBox();
    if (!box) throw new Error("no formula bar");
    await page.mouse.click(box.x + 2, box.y + box.height / 2);
  }
  /** Types two lines into a cell (Alt+Enter between them) and commits with Enter. */
  async function twoLines(address: string): Promise<void> {
    await clickCell(page, address);
    await page.keyboard.type("first");
    await page.keyboard.press("Alt+Enter");
    await page.keyboard.type("second");
    await page.keyboard.press("Enter");
    await until(page, `${address} written`, async () => (await value(address)) === "first\nsecond");
  }

  it("should keep the line breaks of a cell edited with F2, and show them all in the bar", async () => {
    await twoLines("G3");
    await clickCell(page, "G3");
    expect(await bar().inputValue())
      .withContext("the bar holds every line")
      .toBe("first\nsecond");
    await page.keyboard.press("F2"); // the insertion point at the end of the contents
    const editor = page.locator(".jss_worksheet:visible td.editor textarea");
    const oneLine = (await page.locator(cellSelector("G20")).boundingBox())?.height ?? 0;
    expect((await editor.boundingBox())?.height)
      .withContext("the editor shows both lines, over the cell below")
      .toBeGreaterThan(oneLine + 10);
    expect((await page.locator(".jss_worksheet:visible td.editor").boundingBox())?.height)
      .withContext("the row keeps its height")
      .toBe(oneLine);
    await page.keyboard.type("!");
    await page.keyboard.press("Enter");
    await until(page, "G3 edited", async () => (await value("G3")) === "first\nsecond!");
    expect(await activeCell(page)).toBe("G4");
    expect(open.errors).toEqual([]);
  }, 60_000);

  it("should keep the line breaks of a cell edited in the formula bar, where Alt+Enter starts a new line and Esc cancels", async () => {
    await twoLines("G6");
    await clickCell(page, "G6");
    await clickBar();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("?");
    await page.keyboard.press("Enter");
    await until(page, "G6 edited in the bar", async () => (await value("G6")) === "first\nsecond?");
    expect(await activeCell(page)).toBe("G7");

    // Alt+Enter in the bar: a new line, the edit going on; Enter writes it.
    await clickCell(page, "G6");
    await clickBar();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Alt+Enter");
    await page.keyboard.type("third");
    expect(await bar().inputValue()).toBe("first\nsecond?\nthird");
    expect(await activeCell(page))
      .withContext("still editing G6")
      .toBe("G6");
    await page.keyboard.press("Enter");
    await until(
      page,
      "G6's third line",
      async () => (await value("G6")) === "first\nsecond?\nthird"
    );

    // Esc leaves the cell as it was.
    await clickCell(page, "G6");
    await clickBar();
    await page.keyboard.press("Alt+Enter");
    await page.keyboard.type("gone");
    await page.keyboard.press("Escape");
    expect(await value("G6")).toBe("first\nsecond?\nthird");
    expect(await bar().inputValue()).toBe("first\nsecond?\nthird");
    expect(open.errors).toEqual([]);
  }, 60_000);

  it("should expand and collapse the formula bar on Ctrl+Shift+U", async () => {
    await twoLines("G9");
    await clickCell(page, "G9");
    const height = async () => (await bar().boundingBox())?.height ?? 0;
    const collapsed = await height();
    await page.keyboard.press("Control+Shift+U");
    const expanded = await height();
    expect(expanded)
      .withContext("expanded: several lines tall")
      .toBeGreaterThan(collapsed * 2);
    await page.keyboard.press("Control+Shift+U");
    expect(await height()).toBe(collapsed);
    expect(open.errors).toEqual([]);
  }, 60_000);

  it("should keep the line breaks of text pasted into the formula bar and of a cell pasted in the grid", async () => {
    await twoLines("G12");
    // Copied from the bar of G12, pasted into the bar of G13.
    await clickCell(page, "G12");
    await clickBar();
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Control+c");
    await page.keyboard.press("Escape");
    await clickCell(page, "G13");
    await clickBar();
    await page.keyboard.press("Control+v");
    await page.keyboard.press("Enter");
    await until(page, "G13 pasted", async () => (await value("G13")) === "first\nsecond");
    // Copied and pasted in the grid: one cell still, not a line per row.
    await clickCell(page, "G12");
    await page.keyboard.press("Control+c");
    await clickCell(page, "G15");
    await page.keyboard.press("Control+v");
    await until(page, "G15 pasted", async () => (await value("G15")) === "first\nsecond");
    expect(await value("G16")).toBe("");
    expect(open.errors).toEqual([]);
  }, 60_000);
});
