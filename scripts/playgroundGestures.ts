/**
 * A person's mouse and keyboard on the playground's grid, in Chromium driven by playwright-core:
 * shared by the static playground's specs (test/playground/) and `npm run screenshot`.
 */
import type { Page } from "playwright-core";

/**
 * The grid cell at an A1 address of the sheet shown, while the grid holds it (it holds the block
 * of the sheet near the view; `data-cell` is the model's address of a grid cell).
 */
export function cellSelector(address: string): string {
  if (!/^[A-Z]+\d+$/.test(address)) throw new Error(`Not a cell address: ${address}`);
  return `.jss_worksheet:visible td[data-cell="${address}"]`;
}

/** Clicks a cell with the mouse, as a person does. */
export async function clickCell(page: Page, address: string): Promise<void> {
  const cell = page.locator(cellSelector(address));
  await cell.scrollIntoViewIfNeeded();
  await cell.click();
}

/** Types into a cell from the keyboard and presses Enter. */
export async function typeInCell(page: Page, address: string, text: string): Promise<void> {
  await clickCell(page, address);
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

/** What a cell shows. */
export function shown(page: Page, address: string): Promise<string> {
  return page.locator(cellSelector(address)).innerText();
}

/**
 * Where an element is now, or null when it is not in the page: the grid draws only the rows near
 * the view, so a row may leave the page while it is looked for.
 */
async function boxNow(
  locator: ReturnType<Page["locator"]>
): Promise<{ x: number; y: number; width: number; height: number } | null> {
  if ((await locator.count()) === 0) return null;
  return locator.boundingBox({ timeout: 500 }).catch(() => null);
}

async function pressFillHandle(page: Page): Promise<void> {
  const corner = await page.locator(".jss_corner:visible").first().boundingBox();
  if (!corner) throw new Error("no fill handle");
  await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
  await page.mouse.down();
}

/** Drags the selection's fill handle with the mouse down to the cell at `to` (in view). */
export async function dragFillHandle(page: Page, to: string): Promise<void> {
  await pressFillHandle(page);
  const target = page.locator(cellSelector(to));
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error(`no cell ${to}`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
}

/**
 * Drags the selection's fill handle down to row `toRow` of its column however far that is: the
 * pointer held at the bottom edge of the sheet's view (which scrolls on, the sheet being Excel's
 * size), then moved onto the row once it is in view, as a person fills a long column (see
 * fillFarDownTo: a drag that scrolled past the row is brought back with the wheel).
 */
export function fillDownTo(page: Page, column: string, toRow: number): Promise<void> {
  return fillFarDownTo(page, column, toRow);
}

/**
 * Drags the selection's fill handle down to row `toRow` thousands of rows away, as a person does
 * in Excel: the pointer held far below the view's bottom edge (a fast scroll), then just below it
 * when the row is near (slower), then on the edge (slowest), then onto the row.
 */
export async function fillFarDownTo(page: Page, column: string, toRow: number): Promise<void> {
  const scroller = await page.locator(".playground-sheet").boundingBox();
  if (!scroller) throw new Error("no sheet view");
  await pressFillHandle(page);
  const target = () => page.locator(cellSelector(`${column}${toRow}`));
  const bottom = scroller.y + scroller.height;
  const x =
    (await page.locator(".jss_corner:visible").first().boundingBox())?.x ?? scroller.x + 100;
  let overshoots = 0;
  for (let attempt = 0; attempt < 6000; attempt++) {
    const box = await boxNow(target());
    if (box && box.y > scroller.y + 120 && box.y + box.height < bottom - 40) {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
      await page.mouse.up();
      return;
    }
    const lastShown = await page.evaluate(
      ([x, y]) =>
        Number(
          (
            document.elementFromPoint(x, y)?.closest("td[data-cell]") as HTMLElement | null
          )?.dataset.cell?.replace(/^[A-Z]+/, "") ?? 0
        ),
      [x, bottom - 20] as const
    );
    if (lastShown > toRow + 5) {
      // Gone past it (a slow machine scrolled on between two looks): as a person does, bring the
      // pointer back into the view (the scrolling stops) and wheel back up, the button still held;
      // the next look finds the row in view and drops the handle on it.
      if (++overshoots > 60) throw new Error(`the drag passed row ${toRow}`);
      const middle = scroller.y + scroller.height / 2;
      await page.mouse.move(x, middle, { steps: 2 });
      // The sheet scrolls three rows a wheel notch (deltaY 100), as Excel's does.
      await page.mouse.wheel(0, (-(lastShown - toRow + 10) / 3) * 100);
      await page.waitForTimeout(100);
      continue;
    }
    const remaining = toRow - lastShown;
    // The view scrolls while the pointer is beyond its bottom edge, faster the farther beyond:
    // far below it while the row is far, a little below it nearer, on the edge when near.
    const beyond = remaining > 800 ? 260 : remaining > 60 ? 50 : remaining > 8 ? 20 : -3;
    await page.mouse.move(x, bottom + beyond + (attempt % 2));
    await page.waitForTimeout(20);
  }
  throw new Error(`could not fill down to row ${toRow}`);
}
