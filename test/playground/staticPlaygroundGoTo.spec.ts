import type { Page } from "playwright-core";
import {
  clickCell,
  newPlaygroundPage,
  openStaticPlayground,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";
import { activeCell, goTo as nameBoxGoTo, modelCell, modelSelection } from "./support/gridPage.js";

/**
 * Excel's Go To (Ctrl+G, F5) after a click on a cell, with Chromium's mouse and keyboard at two
 * window sizes: the cell gone to is selected, shown at the view's top left when it was out of
 * view, and what is typed next goes into it (and nowhere else). The dialog used to give the
 * keyboard back to the cell clicked before it opened: the browser scrolled that cell into view
 * again, the view and the grid's block went back there, and the text typed next was lost.
 */

const SHEET = "Reviews";

/** The model cells A1:Z600 of the demo sheet, by address. */
function snapshot(page: Page): Promise<Record<string, string>> {
  return page.evaluate(
    ([sheet]) => {
      const workbook = (
        window as unknown as {
          __playground: { workbook: { cell(sheet: string, address: string): { value: unknown } } };
        }
      ).__playground.workbook;
      const cells: Record<string, string> = {};
      for (let column = 0; column < 26; column++) {
        const name = String.fromCharCode(65 + column);
        for (let row = 1; row <= 600; row++)
          cells[`${name}${row}`] = String(workbook.cell(sheet, `${name}${row}`).value);
      }
      return cells;
    },
    [SHEET] as const
  );
}

/** The cells whose value differs between two snapshots. */
function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after).filter((address) => before[address] !== after[address]);
}

/**
 * The first and last rows of which more than a pixel shows in the sheet's view (below the column
 * headers, above its bottom edge), and the first column of which more than a pixel shows right of
 * the row headers: a row or column partly in view counts (a C200 gone to showed most of C199
 * above it, and a test that counted whole rows only said 200).
 */
function rowsInView(page: Page): Promise<{ first: number; last: number; firstColumn: string }> {
  return page.evaluate(() => {
    const scroller = document.querySelector(".playground-sheet") as HTMLElement;
    const table = [...document.querySelectorAll<HTMLElement>(".jss_worksheet")].find(
      (worksheet) => worksheet.offsetParent !== null
    ) as HTMLElement;
    const headers = [...table.querySelectorAll<HTMLElement>("thead td")];
    const viewTop = headers[0].getBoundingClientRect().bottom;
    const box = scroller.getBoundingClientRect();
    const viewBottom = box.top + scroller.clientTop + scroller.clientHeight;
    const viewLeft = headers[0].getBoundingClientRect().right;
    const rows = [...table.querySelectorAll<HTMLElement>("tbody tr td:first-child")]
      .filter((cell) => {
        const { top, bottom } = cell.getBoundingClientRect();
        return cell.textContent && bottom > viewTop + 1 && top < viewBottom - 1;
      })
      .map((cell) => Number(cell.textContent));
    const firstColumn =
      headers
        .slice(1)
        .find((header) => header.getBoundingClientRect().right > viewLeft + 1)
        ?.textContent?.trim() ?? "";
    return { first: Math.min(...rows), last: Math.max(...rows), firstColumn };
  });
}

describe("Go To after a click on the static playground's grid, as Excel (Chromium)", () => {
  let open: OpenPlayground;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });

  for (const viewport of [
    { width: 1400, height: 900 },
    { width: 1024, height: 700 },
  ]) {
    // Excel: "Ctrl+G or F5: Display the Go To dialog box" (Microsoft, "Keyboard shortcuts in
    // Excel"); OK selects the reference, scrolled to the view's top left when out of view.
    it(`should select, show and type into the cell Go To went to after a click (${viewport.width} × ${viewport.height})`, async () => {
      const page = await newPlaygroundPage(open.browser);
      try {
        await page.setViewportSize(viewport);
        await page.goto(`${open.served.origin}/`);
        await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
        const dialog = page.getByRole("dialog", { name: "Go To" });
        const goTo = async (key: string, address: string) => {
          await page.keyboard.press(key);
          await until(page, `the Go To dialog (${key})`, () => dialog.isVisible(), 5_000);
          await page.keyboard.type(address);
          await page.keyboard.press("Enter");
          await until(page, "the dialog closed", async () => !(await dialog.isVisible()), 5_000);
          // The view settles (the browser's focus and scroll, the block's move).
          await page.waitForTimeout(300);
        };
        const typeAndCheck = async (address: string, text: string, context: string) => {
          const before = await snapshot(page);
          await page.keyboard.type(text);
          await page.keyboard.press("Enter");
          await until(
            page,
            `${text} in ${address}`,
            async () => (await modelCell(page, SHEET, address)).value === text,
            5_000
          ).catch(() => undefined);
          expect((await modelCell(page, SHEET, address)).value)
            .withContext(`${context}: the model's ${address}`)
            .toBe(text);
          expect(changed(before, await snapshot(page)))
            .withContext(`${context}: the cells that changed`)
            .toEqual([address]);
        };

        await clickCell(page, "B3");
        await goTo("F5", "K500");
        expect(await activeCell(page))
          .withContext("F5 to K500: the Name Box")
          .toBe("K500");
        let view = await rowsInView(page);
        expect(view.first).withContext("F5 to K500: the view's first row").toBe(500);
        expect(view.firstColumn).withContext("F5 to K500: the view's first column").toBe("K");
        await typeAndCheck("K500", "typed", "after F5 to K500");

        await clickCell(page, "L505");
        await goTo("Control+g", "C200");
        expect(await activeCell(page))
          .withContext("Ctrl+G to C200: the Name Box")
          .toBe("C200");
        view = await rowsInView(page);
        expect(view.first).withContext("Ctrl+G to C200: the view's first row").toBe(200);
        expect(view.firstColumn).withContext("Ctrl+G to C200: the view's first column").toBe("C");
        await typeAndCheck("C200", "again", "after Ctrl+G to C200");
      } finally {
        await page.close();
      }
    }, 90_000);
  }

  // Excel's Name Box: a range typed there is selected, and the view shows its first cell (the
  // active cell), as Go To scrolls "so that the upper-left corner of the range appears in the
  // upper-left corner of the window" (Microsoft, "Application.Goto method"). A1:B37 from a view at row 12 kept the view there: its last cell was in view.
  it("should show the cell gone to at the top and a range's first cell when the Name Box goes to a range whose last cell is in view", async () => {
    const page = await newPlaygroundPage(open.browser);
    try {
      await page.goto(`${open.served.origin}/`);
      await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
      // A fresh page, nothing clicked: Go To C200 showed most of C199 above it (the rows' height
      // was measured while the page was still settling), and the Name Box likewise.
      await page.keyboard.press("Control+g");
      await page.keyboard.type("C200");
      await page.keyboard.press("Enter");
      await until(page, "C200 active", async () => (await activeCell(page)) === "C200", 5_000);
      await page.waitForTimeout(300);
      expect((await rowsInView(page)).first)
        .withContext("Ctrl+G to C200 on a fresh page: the view's first row")
        .toBe(200);
      await nameBoxGoTo(page, "E700");
      await page.waitForTimeout(300);
      expect((await rowsInView(page)).first)
        .withContext("the Name Box to E700: the view's first row")
        .toBe(700);
      await nameBoxGoTo(page, "A300");
      await nameBoxGoTo(page, "A12");
      await page.waitForTimeout(300);
      expect((await rowsInView(page)).first)
        .withContext("the view at row 12")
        .toBe(12);
      await page.locator("#formula-address").click();
      await page.keyboard.type("A1:B37");
      await page.keyboard.press("Enter");
      await until(page, "A1 active", async () => (await activeCell(page)) === "A1", 5_000);
      await page.waitForTimeout(300);
      expect(await modelSelection(page)).toContain("A1:B37");
      expect((await rowsInView(page)).first)
        .withContext("the view shows A1")
        .toBe(1);
      expect((await rowsInView(page)).firstColumn).toBe("A");

      // A range larger than the grid's block: its first cell is shown, and typing goes there.
      await nameBoxGoTo(page, "C300");
      await page.locator("#formula-address").click();
      await page.keyboard.type("B2:D5000");
      await page.keyboard.press("Enter");
      await until(page, "B2 active", async () => (await activeCell(page)) === "B2", 5_000);
      await page.waitForTimeout(300);
      expect(await modelSelection(page)).toContain("B2:D5000");
      expect((await rowsInView(page)).first)
        .withContext("the view shows B2")
        .toBeLessThan(3);
      const before = await snapshot(page);
      await page.keyboard.type("big");
      await page.keyboard.press("Enter");
      await until(
        page,
        "big in B2",
        async () => (await modelCell(page, SHEET, "B2")).value === "big",
        5_000
      ).catch(() => undefined);
      expect(changed(before, await snapshot(page)))
        .withContext("typed after B2:D5000")
        .toEqual(["B2"]);
    } finally {
      await page.close();
    }
  }, 90_000);
});
