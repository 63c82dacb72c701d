import {
  clickCell,
  fillDownTo,
  openStaticPlayground,
  shown,
  typeInCell,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";

/**
 * Filling past the grid's last row with one drag of the fill handle (Excel's sheet goes on below
 * the window: a drag at its bottom edge scrolls on), far enough to reach the spending guard's
 * question (100 runs) by filling one column.
 */

describe("Filling a long column in the static playground (Chromium)", () => {
  let open: OpenPlayground;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });

  it("should fill past the grid's last row with one drag and reach the spending guard's question", async () => {
    const page = open.page;
    await page.goto(`${open.served.origin}/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    // One column of inputs filled down to row 130 (the grid starts with 60 rows), counting up,
    // so that no two runs are the same...
    await typeInCell(page, "D2", "1");
    await clickCell(page, "D2");
    await fillDownTo(page, "D", 130);
    expect(await shown(page, "D130")).toBe("129");
    // ...then the formula beside it: 129 runs, more than the guard's 100 without asking.
    await page.locator(".playground-sheet").evaluate((sheet) => (sheet.scrollTop = 0));
    await typeInCell(page, "E2", '=SPELL.RUN("echo", SPELL.INPUTS("n", D2), "n")');
    await clickCell(page, "E2");
    await fillDownTo(page, "E", 130);
    const allow = page.locator("#allow-these");
    await until(page, "the guard's question", () => allow.isVisible());
    expect(await page.locator("#spending-question").innerText()).toMatch(/1[0-9][0-9]/);
    await allow.click();
    await until(
      page,
      "row 130's result",
      async () => (await shown(page, "E130")) === "129",
      30_000
    );
    expect(open.errors).toEqual([]);
  }, 150_000);
});
