import fc from "fast-check";
import type { Page } from "playwright-core";
import {
  clickCell,
  newPlaygroundPage,
  openStaticPlayground,
  shown,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";
import { activeCell, modelCell } from "./support/gridPage.js";

/**
 * The keyboard and the focus on the static playground's grid as Excel has them, with Chromium's
 * mouse and keyboard: a click then typing always fills the cell clicked, however far right of
 * the first view; PageUp and PageDown move the view a screen with the active cell in it; text of
 * any script typed after the Name Box goes into the cell it selected; Ctrl+G and F5 open Excel's
 * Go To dialog; Backspace on a range clears only the active cell and edits it.
 */

const SHEET = "Reviews";

/** The text of a model cell of the demo sheet. */
async function valueAt(page: Page, address: string): Promise<string> {
  return (await modelCell(page, SHEET, address)).value;
}

/** Opens the playground afresh (its document is the demo) in a context of its own. */
async function freshPage(open: OpenPlayground): Promise<Page> {
  const page = await newPlaygroundPage(open.browser);
  await page.goto(`${open.served.origin}/`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  return page;
}

/** The column letters the grid holds now (the block of the sheet near the view). */
function heldColumns(page: Page): Promise<string[]> {
  return page
    .locator(".jss_worksheet:visible thead tr:last-child td:not(:first-child)")
    .allInnerTexts();
}

/** The columns (A to BH) whose model cell in `row` holds `text`. */
function cellsHolding(page: Page, row: number, text: string): Promise<string[]> {
  return page.evaluate(
    ([sheet, row, text]) => {
      const workbook = (
        window as unknown as {
          __playground: { workbook: { cell(sheet: string, address: string): { value: unknown } } };
        }
      ).__playground.workbook;
      const found: string[] = [];
      for (let column = 0; column < 60; column++) {
        let name = "";
        for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26))
          name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
        if (String(workbook.cell(sheet, `${name}${row}`).value) === text) found.push(name);
      }
      return found;
    },
    [SHEET, row, text] as const
  );
}

describe("Keyboard and focus on the static playground's grid, as Excel (Chromium)", () => {
  let open: OpenPlayground;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });

  // Excel: "select a cell, type, press Enter" puts what was typed into the selected cell. On a
  // fresh 1,400 × 900 page, column K is right of the first view: the click scrolls it into view,
  // the grid's block moves sideways, and the text went three columns right (into N22).
  it("should put text typed after a click into the clicked cell, far right of the first view too (K22 on a fresh page, then generated cells)", async () => {
    const page = await freshPage(open);
    try {
      const typeAt = async (address: string, text: string, context = "") => {
        await clickCell(page, address);
        expect(await activeCell(page))
          .withContext(`${context}the click on ${address}`)
          .toBe(address);
        await page.keyboard.type(text);
        await page.keyboard.press("Enter");
        await until(
          page,
          `${text} in ${address}`,
          async () => (await valueAt(page, address)) !== "",
          5_000
        ).catch(() => undefined);
        const row = Number(/\d+$/.exec(address)?.[0]);
        expect(await valueAt(page, address))
          .withContext(`${context}the model's ${address}`)
          .toBe(text);
        expect(await shown(page, address))
          .withContext(`${context}the grid's ${address}`)
          .toBe(text);
        expect(await cellsHolding(page, row, text))
          .withContext(`${context}row ${row}`)
          .toEqual([address.replace(/\d+$/, "")]);
      };
      await typeAt("K22", "hello");

      // Then cells anywhere in the block the grid holds, each click possibly moving it sideways.
      const seed = Date.now() % 1_000_000;
      const steps = fc.sample(
        fc.record({ column: fc.nat(), row: fc.integer({ min: 2, max: 110 }) }),
        { seed, numRuns: 6 }
      );
      for (const [index, step] of steps.entries()) {
        const columns = await heldColumns(page);
        const address = `${columns[step.column % columns.length]}${step.row}`;
        await typeAt(address, `text ${index}`, `seed ${seed}, step ${index}: `);
      }
    } finally {
      await page.close();
    }
  }, 90_000);
});
