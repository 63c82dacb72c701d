/**
 * What the static playground's specs read of the page's model, and the Name Box as a person
 * uses it.
 */
import type { Page } from "playwright-core";
import { until } from "./staticPlayground.js";

interface PageWorkbook {
  cell(sheet: string, address: string): { value: unknown; formula?: string };
  selection: string;
}

/** A cell of the model (the truth the grid shows). */
export function modelCell(
  page: Page,
  sheet: string,
  address: string
): Promise<{ value: string; formula: string | null }> {
  return page.evaluate(
    ([sheet, address]) => {
      const workbook = (window as unknown as { __playground: { workbook: PageWorkbook } })
        .__playground.workbook;
      const cell = workbook.cell(sheet, address);
      return { value: String(cell.value), formula: cell.formula ?? null };
    },
    [sheet, address] as const
  );
}

/** The model's selection (what `getSelectedRange()` answers). */
export function modelSelection(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      (window as unknown as { __playground: { workbook: PageWorkbook } }).__playground.workbook
        .selection
  );
}

/** The active cell, as the Name Box shows it. */
export function activeCell(page: Page): Promise<string> {
  return page.locator("#formula-address").innerText();
}

/**
 * Types an address in the Name Box with the mouse and the keyboard, and presses Enter; waits for
 * `active` (the range's first cell, which the box then shows) to be the active cell.
 */
export async function goTo(
  page: Page,
  address: string,
  active = address.split(":")[0]
): Promise<void> {
  await page.locator("#formula-address").click();
  await page.keyboard.type(address);
  await page.keyboard.press("Enter");
  await until(page, `${active} active`, async () => (await activeCell(page)) === active);
}
