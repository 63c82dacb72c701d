import type { Page } from "playwright-core";
import {
  cellSelector,
  clickCell,
  openStaticPlayground,
  type OpenPlayground,
  typeInCell,
  until,
} from "./support/staticPlayground.js";
import { activeCell, modelCell } from "./support/gridPage.js";

/**
 * The mouse on the static playground's grid as Excel answers it, with a real mouse in Chromium:
 * the right-click menu, a double-click on the fill handle, a fill drag beyond the view's edge,
 * the wheel, and the headers of the selection. One page for all (each spec scrolls back to the
 * top first).
 */

const sheetView = (page: Page) => page.locator(".playground-sheet");
const scrollTop = (page: Page) => sheetView(page).evaluate((view) => view.scrollTop);

/** The model's last row (1-based) of `column` on the demo sheet with a formula or a value. */
function lastFilledRow(page: Page, column: string): Promise<number> {
  return page.evaluate((column) => {
    const workbook = (
      window as unknown as {
        __playground: {
          workbook: {
            forEachCell(
              visit: (
                sheet: string,
                row: number,
                column: number,
                cell: { value: unknown; formula?: string }
              ) => void
            ): void;
          };
        };
      }
    ).__playground.workbook;
    const index = column.charCodeAt(0) - 65;
    let last = 0;
    workbook.forEachCell((sheet, row, at, cell) => {
      const filled = cell.value !== "" || cell.formula !== undefined;
      if (sheet === "Reviews" && at === index && filled) last = Math.max(last, row + 1);
    });
    return last;
  }, column);
}

/** The row (1-based) of the grid cell under a point of the page. */
function rowAt(page: Page, x: number, y: number): Promise<number> {
  return page.evaluate(
    ([x, y]) => {
      const cell = document.elementFromPoint(x, y)?.closest<HTMLElement>("td[data-cell]");
      return Number(cell?.dataset.cell?.replace(/^[A-Z]+/, "") ?? 0);
    },
    [x, y] as const
  );
}

/** The letters and numbers of the headers the grid shows highlighted. */
function highlightedHeaders(page: Page): Promise<{ columns: string[]; rows: string[] }> {
  return page.locator(".jss_worksheet:visible").evaluate((table) => ({
    columns: [...table.querySelectorAll("thead td.selected")].map((td) => td.textContent ?? ""),
    rows: [...table.querySelectorAll("tbody tr.selected > td:first-child")].map(
      (td) => td.textContent ?? ""
    ),
  }));
}

/** Two animation frames of the page. */
const twoFrames = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()))
      )
  );

describe("The mouse on the static playground's grid (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    open = await openStaticPlayground();
    page = open.page;
    await page.goto(`${open.served.origin}/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });
  beforeEach(async () => {
    await sheetView(page).evaluate((view) => (view.scrollTop = 0));
    await until(page, "the top rows", () => page.locator(cellSelector("A2")).isVisible());
  });
  afterEach(() => {
    expect(open.errors).toEqual([]);
  });

  it("should offer Excel's items on a right-click, never jspreadsheet's Save as or About", async () => {
    const menu = page.locator(".jss_contextmenu");
    await page.locator(cellSelector("A3")).click({ button: "right" });
    await until(page, "the menu", () => menu.isVisible());
    const titles = await menu.locator(":scope > div:not(.header) > a").allInnerTexts();
    expect(titles).toEqual(["Insert Sheet Rows", "Delete Sheet Rows", "Copy", "Paste"]);
    // A menu of menu items for the keyboard and screen readers, without jSuites' hidden
    // "Menu close" header (read out as its first item).
    expect(await menu.getByRole("menuitem").locator("a").allInnerTexts()).toEqual([
      "Insert Sheet Rows",
      "Delete Sheet Rows",
      "Copy",
      "Paste",
    ]);
    expect(await menu.locator(".header").count()).toBe(0);
    expect(await menu.innerText()).not.toMatch(/About|Save as|comments|after/i);
    await page.keyboard.press("Escape");
    await page.mouse.click(5, 5);
    await page.locator(".jss_worksheet:visible thead td[data-x='1']").click({ button: "right" });
    await until(page, "the column's menu", () => menu.isVisible());
    const columnMenu = await menu.innerText();
    for (const title of [
      "Insert Sheet Columns",
      "Delete Sheet Columns",
      "Sort A to Z",
      "Sort Z to A",
    ]) {
      expect(columnMenu).toContain(title);
    }
    expect(columnMenu).not.toMatch(/About|Save as|Rename/i);
    await page.keyboard.press("Escape");
    await page.mouse.click(5, 5);
  });

  // Excel's Sort A to Z shows no arrow on the column's header; the grid's arrow outlived Ctrl+Z.
  it("should leave no sort arrow on a column header after a sort and its undo", async () => {
    const first = await modelCell(page, "Reviews", "A2");
    await page
      .locator(".jss_worksheet:visible thead td", { hasText: /^A$/ })
      .click({ button: "right" });
    await page.getByText("Sort Z to A", { exact: true }).click();
    await until(
      page,
      "the sort",
      async () => (await modelCell(page, "Reviews", "A2")).value !== first.value
    );
    const arrows = page.locator(".jss_worksheet:visible thead td.arrow-up, thead td.arrow-down");
    expect(await arrows.count())
      .withContext("after the sort")
      .toBe(0);
    await page.mouse.click(5, 5);
    await clickCell(page, "C5");
    await page.keyboard.press("Control+z");
    await until(
      page,
      "the sort undone",
      async () => (await modelCell(page, "Reviews", "A2")).value === first.value
    );
    expect(await arrows.count())
      .withContext("after its undo")
      .toBe(0);
  }, 30_000);

  // Excel highlights the headers of the selection's columns and rows, and no others; a column
  // partly in view shows its letter.
  it("should highlight only the selection's headers after a sideways scroll, and show a partly scrolled first column's letter", async () => {
    await clickCell(page, "K5");
    expect(await highlightedHeaders(page)).toEqual({ columns: ["K"], rows: ["5"] });
    const view = await sheetView(page).boundingBox();
    if (!view) throw new Error("no sheet view");
    await page.mouse.move(view.x + 300, view.y + 300);
    for (let notch = 0; notch < 6; notch++) {
      await page.mouse.wheel(400, 0);
      await twoFrames(page);
    }
    await page.waitForTimeout(300);
    const scrolled = await highlightedHeaders(page);
    expect(scrolled.columns.filter((letter) => letter !== "K"))
      .withContext("after the scroll")
      .toEqual([]);
    const shown = await page.locator(".jss_worksheet:visible").evaluate((table) => {
      const left = table.querySelector("thead td")!.getBoundingClientRect().right;
      return [...table.querySelectorAll<HTMLElement>("tbody tr:nth-child(10) td[data-cell]")]
        .find((cell) => cell.getBoundingClientRect().left > left + 5)
        ?.getAttribute("data-cell");
    });
    if (!shown) throw new Error("no cell in view");
    await page.locator(cellSelector(shown)).click();
    expect(await highlightedHeaders(page))
      .withContext(`after a click on ${shown}`)
      .toEqual({ columns: [shown.replace(/\d+$/, "")], rows: ["10"] });

    // Column A partly under the row headers: its letter still shows, right of them.
    await page.mouse.wheel(-100_000, 0);
    await until(
      page,
      "the view at A",
      async () => (await sheetView(page).evaluate((v) => v.scrollLeft)) === 0,
      5_000
    );
    await page.mouse.wheel(70, 0);
    await until(
      page,
      "column A partly scrolled",
      async () => (await sheetView(page).evaluate((v) => v.scrollLeft)) >= 70
    );
    const letter = await page.locator(".jss_worksheet:visible").evaluate((table) => {
      const headers = table.querySelectorAll<HTMLElement>("thead td");
      const text = document.createRange();
      text.selectNodeContents(headers[1]);
      return {
        text: headers[1].textContent,
        left: text.getBoundingClientRect().left,
        rowHeaders: headers[0].getBoundingClientRect().right,
      };
    });
    expect(letter.text).toBe("A");
    expect(letter.left).toBeGreaterThanOrEqual(letter.rowHeaders);
    await page.keyboard.press("Control+Home");
  }, 30_000);

  it("should fill down as far as the adjacent column's data on a double-click of the fill handle (Excel), not to the grid's last row", async () => {
    // The demo's data is A1:B37; C2's fill handle, double-clicked, fills C3:C37 and stops.
    await typeInCell(page, "C2", "=LEN(B2)");
    await clickCell(page, "C2");
    const corner = await page.locator(".jss_corner:visible").first().boundingBox();
    if (!corner) throw new Error("no fill handle");
    await page.mouse.dblclick(corner.x + corner.width / 2, corner.y + corner.height / 2);
    await until(
      page,
      "C37's formula",
      async () => (await modelCell(page, "Reviews", "C37")).formula === "=LEN(B37)"
    );
    expect((await modelCell(page, "Reviews", "C37")).value).toBe("2");
    expect(await modelCell(page, "Reviews", "C38")).toEqual({ value: "", formula: null });
    expect(await lastFilledRow(page, "C")).toBe(37);
  });

  it("should stop a fill drag's scroll when the pointer is back in the view, and end the fill on the row under it (Excel scrolls only while the pointer is beyond the edge)", async () => {
    const view = await sheetView(page).boundingBox();
    if (!view) throw new Error("no sheet view");
    const bottom = view.y + view.height;
    await typeInCell(page, "E2", "kept");
    await clickCell(page, "E2");
    const corner = await page.locator(".jss_corner:visible").first().boundingBox();
    if (!corner) throw new Error("no fill handle");
    const x = corner.x + corner.width / 2;
    await page.mouse.move(x, corner.y + corner.height / 2);
    await page.mouse.down();
    // Beyond the view's bottom edge: the view scrolls on.
    await page.mouse.move(x, bottom + 60, { steps: 4 });
    await until(page, "the drag's scroll", async () => (await scrollTop(page)) > 2_000);
    // Back inside the view, on one of its last rows: the scroll stops there.
    const inside = bottom - 15;
    await page.mouse.move(x, inside, { steps: 2 });
    await page.waitForTimeout(300);
    const stoppedAt = await scrollTop(page);
    const row = await rowAt(page, x, inside);
    await page.waitForTimeout(400);
    expect(await scrollTop(page)).toBe(stoppedAt);
    expect(await rowAt(page, x, inside)).toBe(row);
    await page.mouse.up();
    await until(page, "the fill", async () => (await lastFilledRow(page, "E")) > 2);
    expect(row).toBeGreaterThan(80);
    expect(await lastFilledRow(page, "E")).toBe(row);
    expect((await modelCell(page, "Reviews", `E${row}`)).value).toBe("kept");
  });

  // A cell scrolled into view and clicked (Chromium scrolls a clicked element into view, as it
  // does for find in page) is the one selected, though its scroll moved the grid's block down:
  // C195 selected C460 when the move rewrote the block's rows in place.
  it("should select and type into the cell clicked after its scroll into view moved the grid's block down", async () => {
    const view = await sheetView(page).boundingBox();
    if (!view) throw new Error("no sheet view");
    await page.mouse.move(view.x + 300, view.y + 300);
    await page.mouse.wheel(0, 3000); // 90 rows
    await twoFrames(page);
    await page.waitForTimeout(300);
    await clickCell(page, "C195");
    await until(page, "C195 active", async () => (await activeCell(page)) === "C195", 3_000);
    await page.keyboard.type("clicked");
    await page.keyboard.press("Enter");
    await until(
      page,
      "clicked in C195",
      async () => (await modelCell(page, "Reviews", "C195")).value === "clicked",
      3_000
    );
    await page.keyboard.press("Control+z");
  }, 30_000);

  it("should follow a large wheel delta within two frames, three rows a notch as Excel scrolls", async () => {
    const view = await sheetView(page).boundingBox();
    if (!view) throw new Error("no sheet view");
    const rowHeight = (await page.locator(cellSelector("A2")).boundingBox())?.height ?? 0;
    expect(rowHeight).toBeGreaterThan(0);
    await page.mouse.move(view.x + 300, view.y + 300);
    // 30 notches (deltaY 100 each in Chromium): 90 rows.
    await page.mouse.wheel(0, 3000);
    await twoFrames(page);
    expect((await scrollTop(page)) / rowHeight).toBeCloseTo(90, 0);
    expect(await page.locator(cellSelector("A95")).isVisible()).toBe(true);
    // And back up: a notch is three rows.
    await page.mouse.wheel(0, -100);
    await twoFrames(page);
    expect((await scrollTop(page)) / rowHeight).toBeCloseTo(87, 0);
  });
});
