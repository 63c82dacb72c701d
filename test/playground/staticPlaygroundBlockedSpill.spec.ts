import {
  clickCell,
  openStaticPlayground,
  shown,
  typeInCell,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";

/**
 * A spill blocked by another formula's spill, with the keyboard in Chromium. Microsoft, "How to
 * correct a #SPILL! error": "Spill range isn't blank … Once the obstruction is cleared, the
 * formula will spill as intended."
 */
describe("A spill blocked by another spill in the static playground (Chromium)", () => {
  let open: OpenPlayground;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });

  it("should spill a formula blocked by another formula's spill once that formula is deleted", async () => {
    const page = open.page;
    await page.goto(`${open.served.origin}/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    // E3 spills down to E8 (SPELL.BULK); D5 wants D5:E7 (a plain range: A1:B3 shown again),
    // where E5:E7 are E3's.
    await typeInCell(page, "E3", '=SPELL.BULK("summarize", A1:A6, "summary")');
    await until(page, "E3's spill", async () => (await shown(page, "E8")) !== "");
    await typeInCell(page, "D5", "=A1:B3");
    await until(page, "D5's #SPILL!", async () => (await shown(page, "D5")) === "#SPILL!");
    expect(await shown(page, "E6")).not.toBe("");

    await clickCell(page, "E3");
    await page.keyboard.press("Delete");
    await until(page, "D5's spill", async () => (await shown(page, "D5")) !== "#SPILL!");
    expect(await shown(page, "D7")).toBe(await shown(page, "A3"));
    expect(await shown(page, "E7")).toBe(await shown(page, "B3"));
    expect(await shown(page, "E3")).toBe("");
    expect(await shown(page, "E8")).toBe("");
  }, 90_000);
});
