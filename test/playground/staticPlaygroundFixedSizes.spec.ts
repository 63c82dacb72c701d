import type { Locator, Page } from "playwright-core";
import {
  type OpenPlayground,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";

/**
 * Row heights and column widths are fixed in the static playground (Chromium, the mouse): a drag
 * on a header's border resizes nothing (a width set by hand would be lost when the grid's block
 * moves, and a taller row would put the rows' spacers off), as the page's list says.
 */
describe("Fixed row heights and column widths in the static playground (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  /** Drags from 3 px inside a header's right (or bottom) border, `by` pixels further. */
  async function dragBorder(header: Locator, axis: "x" | "y", by: number): Promise<void> {
    const box = (await header.boundingBox())!;
    const x = axis === "x" ? box.x + box.width - 3 : box.x + box.width / 2;
    const y = axis === "y" ? box.y + box.height - 3 : box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + (axis === "x" ? by : 0), y + (axis === "y" ? by : 0), { steps: 5 });
    await page.mouse.up();
  }

  it("should keep column C's width and row 5's height after a drag on their headers' borders", async () => {
    const column = page.locator(".jss_worksheet:visible thead td[data-x='2']");
    const row = page.locator(".jss_worksheet:visible tbody td.jss_row[data-y='4']");
    const width = (await column.boundingBox())!.width;
    const height = (await row.boundingBox())!.height;
    await dragBorder(column, "x", 80);
    await dragBorder(row, "y", 40);
    expect((await column.boundingBox())!.width).toBe(width);
    expect((await row.boundingBox())!.height).toBe(height);
  }, 60_000);
});
