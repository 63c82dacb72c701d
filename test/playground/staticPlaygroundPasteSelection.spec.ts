import type { Page } from "playwright-core";
import {
  type OpenPlayground,
  until,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";
import { goTo, modelCell } from "./support/gridPage.js";

/**
 * A paste into a selection longer than the rows the grid holds near the view (Chromium, the
 * Name Box and the keyboard): Excel fills every cell of the selected range with the one copied
 * cell, so the model gets every row, not only those near the view, and one Ctrl+Z takes it back.
 */
describe("A paste into a long selection in the static playground (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  const inputs = (rows: number[], column: string) =>
    Promise.all(
      rows.map(async (row) => {
        const cell = await modelCell(page, "Reviews", `${column}${row}`);
        return cell.formula ?? cell.value;
      })
    );

  it("should fill every cell of D3:D1101 and E3:E1101 (a value, a formula moved per row), and undo each as one step", async () => {
    const rows = [3, 4, 150, 500, 1000, 1079, 1080, 1101];
    await goTo(page, "D2");
    await page.keyboard.type("pasted");
    await page.keyboard.press("Enter");
    await goTo(page, "D2");
    await page.keyboard.press("Control+c");
    await goTo(page, "D3:D1101");
    await page.keyboard.press("Control+v");
    await until(page, "D3 pasted", async () => (await inputs([3], "D"))[0] === "pasted");
    expect(await inputs(rows, "D")).toEqual(rows.map(() => "pasted"));
    expect(await inputs([1102], "D")).toEqual([""]);

    await goTo(page, "E2");
    await page.keyboard.type("=LEN(D2)");
    await page.keyboard.press("Enter");
    await goTo(page, "E2");
    await page.keyboard.press("Control+c");
    await goTo(page, "E3:E1101");
    await page.keyboard.press("Control+v");
    await until(page, "E3's formula", async () => (await inputs([3], "E"))[0] === "=LEN(D3)");
    expect(await inputs(rows, "E")).toEqual(rows.map((row) => `=LEN(D${row})`));
    expect((await modelCell(page, "Reviews", "E500")).value).toBe("6");

    await page.keyboard.press("Control+z");
    await until(page, "E's paste undone", async () => (await inputs([3], "E"))[0] === "");
    expect(await inputs(rows, "E")).toEqual(rows.map(() => ""));
    expect(await inputs(rows, "D")).toEqual(rows.map(() => "pasted"));
    await page.keyboard.press("Control+z"); // E2's formula
    await until(page, "E2 undone", async () => (await inputs([2], "E"))[0] === "");
    await page.keyboard.press("Control+z");
    await until(page, "D's paste undone", async () => (await inputs([3], "D"))[0] === "");
    expect(await inputs(rows, "D")).toEqual(rows.map(() => ""));
    expect(await inputs([2], "D")).toEqual(["pasted"]);
  }, 120_000);
});
