import type { Page } from "playwright-core";
import {
  clickCell,
  closeReadyPlayground,
  openReadyPlayground,
  typeInCell,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";

/**
 * The selection stays what Excel leaves selected, and stays shown: the whole range a double-click
 * on the fill handle filled (not only its first row), and the range the task pane's "Use
 * selection" read (a click in the pane took the grid's highlight away). Real mouse and keyboard,
 * in Chromium.
 */

type PageWindow = { __playground: { workbook: { selection: string } } };

function modelSelection(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as PageWindow).__playground.workbook.selection);
}

/** The cells of the shown sheet highlighted as selected, by address. */
function highlighted(page: Page): Promise<string[]> {
  return page
    .locator(".jss_worksheet:visible td.highlight[data-cell]")
    .evaluateAll((cells) => cells.map((cell) => (cell as HTMLElement).dataset.cell ?? ""));
}

describe("The selection kept and shown in the static playground (Chromium)", () => {
  let open: OpenPlayground | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  it("should leave the whole filled range selected after a double-click on the fill handle, its first cell active", async () => {
    if (!page) throw new Error("no page");
    const shownPage = page;
    await typeInCell(page, "C2", "=LEN(B2)");
    await clickCell(page, "C2");
    const corner = await page.locator(".jss_corner:visible").first().boundingBox();
    if (!corner) throw new Error("no fill handle");
    await page.mouse.dblclick(corner.x + corner.width / 2, corner.y + corner.height / 2);
    await until(page, "the fill", async () => (await modelSelection(shownPage)) !== "Reviews!C2");
    // The demo's reviews end on row 37: C2:C37 filled, and selected.
    expect(await modelSelection(page)).toBe("Reviews!C2:C37");
    expect(await page.locator("#formula-address").innerText()).toBe("C2");
    const cells = await highlighted(page);
    expect(cells.length).toBe(36);
    expect(cells).toContain("C37");
    // What acts on the selection acts on all of it: Delete empties the 36 cells.
    await page.keyboard.press("Delete");
    await until(
      page,
      "C37 emptied",
      async () =>
        (await shownPage.locator('.jss_worksheet:visible td[data-cell="C37"]').innerText()) === ""
    );
  }, 60_000);

  it('should keep the selection shown when the task pane\'s "Use selection" reads it', async () => {
    if (!page || !open) throw new Error("no page");
    await clickCell(page, "A1");
    await page.keyboard.down("Shift");
    await clickCell(page, "B4");
    await page.keyboard.up("Shift");
    const before = await highlighted(page);
    expect(before.length).toBe(8);
    await page.locator("#use-selection").click();
    const summary = page.locator("#selection-summary");
    await until(
      page,
      "the pane read the selection",
      async () => !/^Select a range/.test(await summary.innerText())
    );
    expect(await highlighted(page)).toEqual(before);
    expect(await modelSelection(page)).toBe("Reviews!A1:B4");
    expect(open.errors).toEqual([]);
  }, 60_000);
});
