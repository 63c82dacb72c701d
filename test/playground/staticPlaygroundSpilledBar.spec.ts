import type { Page } from "playwright-core";
import {
  clickCell,
  shown,
  typeInCell,
  type OpenPlayground,
  until,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";
import { modelCell } from "./support/gridPage.js";

/**
 * The formula bar on a cell a formula spilled into (Microsoft, "Dynamic array formulas and
 * spilled array behavior"): the bar shows the spill's formula, greyed, on every cell of the
 * range, never the value as if typed; the formula is edited in its first cell. What a person types
 * in a spilled cell is written there, and the formula shows #SPILL! until it is taken back.
 */
describe("The formula bar on a spilled cell in the static playground (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  const bar = () => page.locator("#formula-content");
  async function clickBarEnd(): Promise<void> {
    const box = await bar().boundingBox();
    if (!box) throw new Error("no formula bar");
    await page.mouse.click(box.x + box.width - 4, box.y + box.height / 2);
  }

  it("should show the spill's formula greyed on a spilled cell, write nothing when left the same, and #SPILL! on a typed value", async () => {
    await page.locator(".jtabs-headers > div", { hasText: "Sheet2" }).click();
    for (const [row, region] of ["East", "West", "East", "North"].entries()) {
      await typeInCell(page, `C${row + 2}`, region);
    }
    await typeInCell(page, "G1", "=UNIQUE(C2:C5)");
    await until(page, "the spill", async () => (await shown(page, "G3")) === "North");

    await clickCell(page, "G2");
    expect(await bar().inputValue()).toBe("=UNIQUE(C2:C5)");
    expect(await bar().getAttribute("class")).toContain("formula-spilled");
    expect(await bar().evaluate((field) => getComputedStyle(field).color)).not.toBe(
      await page.locator("#formula-address").evaluate((box) => getComputedStyle(box).color)
    );

    // Clicked and left as it was: nothing is written, the spill stays.
    await clickBarEnd();
    expect(await bar().inputValue()).toBe("");
    await page.keyboard.press("Enter");
    await page.waitForTimeout(300);
    expect(await shown(page, "G1")).toBe("East");
    expect(await shown(page, "G2")).toBe("West");
    expect((await modelCell(page, "Sheet2", "G1")).formula).toBe("=UNIQUE(C2:C5)");

    // A value typed there is the cell's own: the spill is blocked, as typing in the cell does.
    await clickCell(page, "G2");
    await clickBarEnd();
    await page.keyboard.type("X");
    await page.keyboard.press("Enter");
    await until(page, "#SPILL!", async () => (await shown(page, "G1")) === "#SPILL!");
    expect(await modelCell(page, "Sheet2", "G2")).toEqual({ value: "X", formula: null });
    await clickCell(page, "G2");
    expect(await bar().inputValue()).toBe("X");
    expect(await bar().getAttribute("class")).not.toContain("formula-spilled");

    await page.keyboard.press("Control+z");
    await until(page, "the spill again", async () => (await shown(page, "G2")) === "West");
    expect(await shown(page, "G1")).toBe("East");
    expect(open.errors).toEqual([]);
  }, 90_000);
});
