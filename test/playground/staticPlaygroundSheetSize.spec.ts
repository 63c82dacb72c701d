import type { Page } from "playwright-core";
import {
  clickCell,
  newPlaygroundPage,
  openStaticPlayground,
  shown,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";
import { activeCell, goTo } from "./support/gridPage.js";

/**
 * The static playground's sheet is Excel's size (1,048,576 rows × 16,384 columns), with the mouse
 * and the keyboard in Chromium: the Name Box goes to XFD1048576, a value typed there reaches the
 * model; Ctrl+arrows follow Excel's rule on the model's data (the data region's edge, else the
 * sheet's edge); Ctrl+Home and Ctrl+End; the headers show the model's numbers and letters; only
 * the rows and columns near the view are in the page.
 */

/** A model cell's value, read from the page's workbook. */
function modelValue(page: Page, sheet: string, address: string): Promise<unknown> {
  return page.evaluate(
    ([sheet, address]) =>
      (
        window as unknown as {
          __playground: { workbook: { cell(sheet: string, address: string): { value: unknown } } };
        }
      ).__playground.workbook.cell(sheet, address).value,
    [sheet, address] as const
  );
}

/** Whether a cell is in the page and not hidden under the bars or the headers. */
function inView(page: Page, address: string): Promise<boolean> {
  return page.evaluate((address) => {
    const element = document.querySelector(`.jss_worksheet td[data-cell="${address}"]`);
    if (!element) return false;
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  }, address);
}

describe("The static playground's sheet of Excel's size (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });
  beforeEach(async () => {
    // A context of its own: the demo afresh (a document is kept in the page's storage).
    page = await newPlaygroundPage(open.browser);
    errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(`${open.served.origin}/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  }, 90_000);
  afterEach(async () => {
    await page?.close();
  }, 30_000);

  it("should go to XFD1048576 through the Name Box, take a value typed there and show the sheet's last row and column", async () => {
    await goTo(page, "XFD1048576");
    await until(page, "XFD1048576 in view", () => inView(page, "XFD1048576"));
    await page.keyboard.type("the last cell");
    await page.keyboard.press("Enter");
    await until(
      page,
      "the model's XFD1048576",
      async () => (await modelValue(page, "Reviews", "XFD1048576")) === "the last cell"
    );
    expect(await shown(page, "XFD1048576")).toBe("the last cell");
    // The headers show the model's row number and column letters.
    const headers = await page.evaluate(() => {
      const cell = document.querySelector('.jss_worksheet td[data-cell="XFD1048576"]');
      const row = cell?.parentElement?.firstElementChild?.textContent;
      const table = cell?.closest("table");
      const x = cell?.getAttribute("data-x");
      const column = table?.querySelector(`thead td[data-x="${x}"]`)?.textContent;
      return { row, column };
    });
    expect(headers).toEqual({ row: "1048576", column: "XFD" });
    // Only the rows and columns near the view are in the page.
    expect(await page.locator(".jss_worksheet:visible tbody tr").count()).toBeLessThan(400);
    expect(await page.locator(".jss_worksheet:visible thead td").count()).toBeLessThan(80);
    // Back to A1 with Ctrl+Home: the demo's first cell, as it was.
    await page.keyboard.press("Control+Home");
    await until(page, "A1 active", async () => (await activeCell(page)) === "A1");
    await until(page, "A1 in view", () => inView(page, "A1"));
    expect(await shown(page, "A1")).toBe("text");
    expect(errors).toEqual([]);
  }, 120_000);

  it("should scroll with the mouse wheel to the sheet's last row and last column, showing their numbers and letters", async () => {
    const sheet = await page.locator(".playground-sheet").boundingBox();
    if (!sheet) throw new Error("no sheet view");
    await page.mouse.move(sheet.x + sheet.width / 2, sheet.y + sheet.height / 2);
    const lastShown = () =>
      page.evaluate(() => {
        // The sheet shown (the demo's first, Reviews) is the first table.
        const table = document.querySelector(".jss_worksheet") as HTMLTableElement;
        const rows = [...table.querySelectorAll("tbody tr")];
        const numbers = rows.map((row) => Number(row.firstElementChild?.textContent ?? 0));
        const letters = [...table.querySelectorAll("thead td[data-x]")].map(
          (header) => header.textContent
        );
        return { row: Math.max(...numbers), column: letters[letters.length - 1] };
      });
    // The wheel turned on until the view can go no further, down then right.
    const atEnd = (axis: "down" | "right") =>
      page
        .locator(".playground-sheet")
        .evaluate(
          (view, axis) =>
            axis === "down"
              ? view.scrollTop + view.clientHeight >= view.scrollHeight - 1
              : view.scrollLeft + view.clientWidth >= view.scrollWidth - 1,
          axis
        );
    for (let turn = 0; turn < 200 && !(await atEnd("down")); turn++) {
      await page.mouse.wheel(0, 2_000_000);
      await page.waitForTimeout(50);
    }
    for (let turn = 0; turn < 200 && !(await atEnd("right")); turn++) {
      await page.mouse.wheel(200_000, 0);
      await page.waitForTimeout(50);
    }
    await until(page, "XFD1048576 in view", () => inView(page, "XFD1048576"));
    expect(await lastShown()).toEqual({ row: 1_048_576, column: "XFD" });
    expect(await page.locator(".jss_worksheet:visible tbody tr").count()).toBeLessThan(400);
    expect(errors).toEqual([]);
  }, 120_000);

  it("should type, copy and paste and insert a row far down the sheet, on the model's rows", async () => {
    const model = (address: string) =>
      page.evaluate((address) => {
        const cell = (
          window as unknown as {
            __playground: {
              workbook: {
                cell(sheet: string, address: string): { value: unknown; formula?: string };
              };
            };
          }
        ).__playground.workbook.cell("Reviews", address);
        return cell.formula ?? cell.value;
      }, address);
    await goTo(page, "C5000");
    for (const value of ["3", "1", "2"]) {
      await page.keyboard.type(value);
      await page.keyboard.press("Enter");
    }
    await goTo(page, "D5000");
    await page.keyboard.type("=C5000*2");
    await page.keyboard.press("Enter");
    await clickCell(page, "D5000");
    await page.keyboard.press("Control+c");
    await clickCell(page, "D5001");
    await page.keyboard.press("Control+v");
    await until(page, "the pasted formula", async () => (await model("D5001")) === "=C5001*2");
    expect(await shown(page, "D5001")).toBe("2");
    // A row inserted above row 5,001 from its header's menu: the model's rows below move down.
    await page
      .locator(".jss_worksheet:visible tbody td.jss_row", { hasText: /^5001$/ })
      .click({ button: "right" });
    await page.getByText("Insert Sheet Rows", { exact: true }).click();
    await until(page, "C5002 moved down", async () => (await model("C5002")) === 1);
    expect(await model("C5001")).toBe("");
    expect(await model("D5002")).toBe("=C5002*2");
    expect(errors).toEqual([]);
  }, 120_000);

  it("should show cells across a view wider than the grid's block", async () => {
    await page.setViewportSize({ width: 3200, height: 900 });
    const atRightEdge = () =>
      page.evaluate(() => {
        const view = (
          document.querySelector(".playground-sheet") as HTMLElement
        ).getBoundingClientRect();
        const hit = document.elementFromPoint(view.right - 30, view.top + view.height / 2);
        return (hit?.closest("td[data-cell]") as HTMLElement | null)?.dataset.cell ?? "";
      });
    await until(page, "a cell at the view's right edge", async () => (await atRightEdge()) !== "");
    expect(await atRightEdge()).toMatch(/^[A-Z]+\d+$/);
    expect(errors).toEqual([]);
  }, 60_000);

  it("should move with Ctrl+arrows and Ctrl+End as Excel does, on the model's data", async () => {
    // Column A holds the demo's 37 rows (A1:A37); B1:B37 their languages.
    await clickCell(page, "A2");
    await page.keyboard.press("Control+ArrowDown");
    await until(page, "A37 (the data's edge)", async () => (await activeCell(page)) === "A37");
    await page.keyboard.press("Control+ArrowDown");
    await until(page, "A1048576 (the sheet's edge)", async () => {
      return (await activeCell(page)) === "A1048576";
    });
    await until(page, "A1048576 in view", () => inView(page, "A1048576"));
    await page.keyboard.press("Control+ArrowUp");
    await until(page, "A37 again", async () => (await activeCell(page)) === "A37");
    // Shift+Ctrl+Up selects to the data's edge (what the add-in reads as the selection).
    await page.keyboard.press("Control+Shift+ArrowUp");
    await until(page, "A1:A37 selected", async () => {
      const selected = await page.evaluate(
        () =>
          (window as unknown as { __playground: { workbook: { selection: string } } }).__playground
            .workbook.selection
      );
      return selected === "Reviews!A1:A37";
    });
    // A cell far below the data, then Ctrl+Up from under it reaches it, Ctrl+End the corner.
    await goTo(page, "C5000");
    await page.keyboard.type("far");
    await page.keyboard.press("Enter");
    await until(page, "C5000 in the model", async () => {
      return (await modelValue(page, "Reviews", "C5000")) === "far";
    });
    await goTo(page, "C9000");
    await page.keyboard.press("Control+ArrowUp");
    await until(page, "C5000", async () => (await activeCell(page)) === "C5000");
    await page.keyboard.press("Control+ArrowUp");
    await until(page, "C1 (nothing above C5000)", async () => (await activeCell(page)) === "C1");
    await page.keyboard.press("Control+End");
    await until(page, "C5000 (last row and column used)", async () => {
      return (await activeCell(page)) === "C5000";
    });
    expect(await shown(page, "C5000")).toBe("far");
    // Ctrl+Right from A2 along a filled row: B2 (the row's data edge), then XFD2.
    await page.keyboard.press("Control+Home");
    await clickCell(page, "A2");
    await page.keyboard.press("Control+ArrowRight");
    await until(page, "B2", async () => (await activeCell(page)) === "B2");
    await page.keyboard.press("Control+ArrowRight");
    await until(page, "XFD2", async () => (await activeCell(page)) === "XFD2");
    await until(page, "XFD2 in view", () => inView(page, "XFD2"));
    expect(errors).toEqual([]);
  }, 120_000);

  // Excel keeps each sheet's active cell: back on a sheet, the Name Box names the cell that was
  // active there, by its address in the sheet (not its place in the grid's block).
  it("should name a far cell in the Name Box again after switching sheets and back", async () => {
    await goTo(page, "Z500000");
    await page.locator(".jtabs-headers > div", { hasText: "Sheet2" }).click();
    await until(page, "Sheet2's cell", async () => (await activeCell(page)) !== "Z500000");
    await page.locator(".jtabs-headers > div", { hasText: "Reviews" }).click();
    await until(page, "Z500000 again", async () => (await activeCell(page)) === "Z500000");
    expect(errors).toEqual([]);
  }, 60_000);
});
