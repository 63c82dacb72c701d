import type { Page } from "playwright-core";
import {
  clickCell,
  newPlaygroundPage,
  openStaticPlayground,
  shown,
  typeInCell,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";
import { modelCell } from "./support/gridPage.js";

/**
 * Undo and redo of a sort, a deleted row and an inserted column in the static playground, with
 * the mouse and the keyboard in Chromium. Microsoft's "Undo, redo, or repeat an action": "You can
 * undo, redo, or repeat many actions in Microsoft Excel"; Excel's Ctrl+Z takes back a sort, an
 * inserted or deleted row or column (the formulas' references with it), and Ctrl+Y makes it
 * again. The grid shows what the model holds after each.
 *
 * One page for the file: each spec works on cells of its own and leaves its sheet as it found it.
 */

/** The model's inputs of a column's cells (formula, else value), from row `from` to row `to`. */
function modelColumn(page: Page, sheet: string, column: string, from: number, to: number) {
  return page.evaluate(
    ([sheet, column, from, to]) => {
      const workbook = (
        window as unknown as {
          __playground: {
            workbook: {
              cell(sheet: string, address: string): { value: unknown; formula?: string };
            };
          };
        }
      ).__playground.workbook;
      return Array.from({ length: to - from + 1 }, (_, index) => {
        const cell = workbook.cell(sheet, `${column}${from + index}`);
        return cell.formula ?? String(cell.value);
      });
    },
    [sheet, column, from, to] as const
  );
}

/** Opens a header's menu (a row's number or a column's letter) and picks `item`. */
async function headerMenu(page: Page, header: string, item: string): Promise<void> {
  const part = /^\d+$/.test(header) ? "tbody td.jss_row" : "thead td";
  const target = page.locator(`.jss_worksheet:visible ${part}`, {
    hasText: new RegExp(`^${header}$`),
  });
  await target.click();
  await target.click({ button: "right" });
  await page.locator(".jss_contextmenu div", { hasText: item }).first().click();
}

async function chooseSheet(page: Page, sheet: string): Promise<void> {
  await page.locator(".jtabs-headers > div", { hasText: sheet }).click();
}

describe("Undo and redo of sorts, inserts and deletes in the static playground (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    open = await openStaticPlayground();
    page = await newPlaygroundPage(open.browser);
    errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${open.served.origin}/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  }, 300_000);
  afterAll(async () => {
    await page?.close();
    await open?.close();
  });
  afterEach(() => {
    expect(errors).toEqual([]);
  });

  it("should take a sort back with Ctrl+Z, in the grid and the model, and sort again with Ctrl+Y", async () => {
    await chooseSheet(page, "Reviews");
    await typeInCell(page, "F2", "=LEN(A2)");
    await until(page, "F2's formula", async () => (await shown(page, "F2")) !== "");
    const before = await modelColumn(page, "Reviews", "A", 1, 37);
    await clickCell(page, "A2");
    await headerMenu(page, "A", "Sort Z to A");
    await until(
      page,
      "the sorted rows",
      async () => (await modelColumn(page, "Reviews", "A", 1, 2))[1] !== before[1]
    );
    const sorted = await modelColumn(page, "Reviews", "A", 1, 37);
    expect(sorted).not.toEqual(before);
    expect(sorted[0]).toBe(before[0]); // the header stays
    expect([...sorted].sort()).toEqual([...before].sort());

    await clickCell(page, "H2");
    await page.keyboard.press("Control+z");
    await until(
      page,
      "the order before the sort",
      async () =>
        JSON.stringify(await modelColumn(page, "Reviews", "A", 1, 37)) === JSON.stringify(before)
    );
    expect(await shown(page, "A2")).toBe(before[1]);
    expect(await shown(page, "A3")).toBe(before[2]);
    expect((await modelCell(page, "Reviews", "F2")).formula).toBe("=LEN(A2)");
    expect(await shown(page, "F2")).toBe(String(before[1].length));

    await page.keyboard.press("Control+y");
    await until(
      page,
      "the sort made again",
      async () =>
        JSON.stringify(await modelColumn(page, "Reviews", "A", 1, 37)) === JSON.stringify(sorted)
    );
    expect(await shown(page, "A2")).toBe(sorted[1]);
    // Back to the demo's order, and F2 empty again, for the other specs.
    await page.keyboard.press("Control+z");
    await page.keyboard.press("Control+z");
    await until(
      page,
      "F2 undone",
      async () => (await modelCell(page, "Reviews", "F2")).value === ""
    );
  }, 60_000);

  it("should bring back a deleted row with Ctrl+Z, the formulas reading it and below it as they were", async () => {
    await chooseSheet(page, "Sheet2");
    await typeInCell(page, "A3", "gone");
    await typeInCell(page, "A5", "below");
    await typeInCell(page, "B1", "=A3");
    await typeInCell(page, "B2", '=A5&"!"');
    await until(page, "B2's value", async () => (await shown(page, "B2")) === "below!");
    await headerMenu(page, "3", "Delete Sheet Rows");
    await until(
      page,
      "row 3 deleted",
      async () => (await modelCell(page, "Sheet2", "A4")).value === "below"
    );
    expect((await modelCell(page, "Sheet2", "B2")).formula).toBe('=A4&"!"');
    expect((await modelCell(page, "Sheet2", "B1")).formula).toBe("=#REF!");

    await clickCell(page, "D8");
    await page.keyboard.press("Control+z");
    await until(
      page,
      "row 3 back",
      async () => (await modelCell(page, "Sheet2", "A3")).value === "gone"
    );
    expect((await modelCell(page, "Sheet2", "A5")).value).toBe("below");
    expect((await modelCell(page, "Sheet2", "B1")).formula).toBe("=A3");
    expect((await modelCell(page, "Sheet2", "B2")).formula).toBe('=A5&"!"');
    await until(page, "B1 reading row 3 again", async () => (await shown(page, "B1")) === "gone");
    expect(await shown(page, "A3")).toBe("gone");
    expect(await shown(page, "B2")).toBe("below!");

    await page.keyboard.press("Control+y");
    await until(
      page,
      "row 3 deleted again",
      async () => (await modelCell(page, "Sheet2", "A3")).value === ""
    );
    expect(await shown(page, "A4")).toBe("below");
    await page.keyboard.press("Control+z");
    for (let typed = 0; typed < 4; typed++) await page.keyboard.press("Control+z");
    await until(page, "Sheet2 empty again", async () => (await shown(page, "A5")) === "");
  }, 60_000);

  it("should take an inserted column back with Ctrl+Z, the formulas reading as before", async () => {
    await chooseSheet(page, "Reviews");
    const language = (await modelCell(page, "Reviews", "B2")).value;
    await typeInCell(page, "D2", '=B2&"?"');
    await until(page, "D2's value", async () => (await shown(page, "D2")) === `${language}?`);
    await headerMenu(page, "B", "Insert Sheet Columns");
    await until(
      page,
      "column B inserted",
      async () => (await modelCell(page, "Reviews", "C2")).value === language
    );
    expect((await modelCell(page, "Reviews", "E2")).formula).toBe('=C2&"?"');

    await clickCell(page, "G3");
    await page.keyboard.press("Control+z");
    await until(
      page,
      "the column taken back",
      async () => (await modelCell(page, "Reviews", "B2")).value === language
    );
    expect((await modelCell(page, "Reviews", "D2")).formula).toBe('=B2&"?"');
    expect((await modelCell(page, "Reviews", "E2")).value).toBe("");
    expect(await shown(page, "B2")).toBe(language);
    expect(await shown(page, "C2")).toBe("");
    await until(page, "D2 shown", async () => (await shown(page, "D2")) === `${language}?`);

    await page.keyboard.press("Control+y");
    await until(
      page,
      "the column inserted again",
      async () => (await modelCell(page, "Reviews", "C2")).value === language
    );
    expect(await shown(page, "B2")).toBe("");
    await page.keyboard.press("Control+z");
    await page.keyboard.press("Control+z");
    await until(
      page,
      "D2 undone",
      async () => (await modelCell(page, "Reviews", "D2")).value === ""
    );
  }, 60_000);
});
