import type { Page } from "playwright-core";
import {
  clickCell,
  shown,
  type OpenPlayground,
  until,
  openReadyPage,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";
import { activeCell, goTo, modelCell, modelSelection } from "./support/gridPage.js";

/**
 * Excel's Ctrl+Enter with several cells selected (Microsoft, "Keyboard shortcuts in Excel":
 * "Ctrl+Enter: Fill the selected cell range with the current entry"): every selected cell takes
 * the entry, a formula's relative references adjusted for each cell as a fill adjusts them, the
 * selection stays, and one Ctrl+Z takes the whole fill back. A SPELL.RUN entered so runs once per
 * row with that row's inputs, the spending guard asking before more than its 100 start.
 */
describe("Ctrl+Enter over a selected range in the static playground (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  const formula = async (address: string) =>
    (await modelCell(page, "Reviews", address)).formula ?? "";
  const value = async (address: string) => (await modelCell(page, "Reviews", address)).value;
  const runsStarted = () =>
    page.evaluate(() => {
      const { stats } = (
        window as unknown as {
          __emulator: { stats: { runsCreated: number; bulkRunsCreated: number } };
        }
      ).__emulator;
      return stats.runsCreated + stats.bulkRunsCreated;
    });
  /** Selects from `from` down by `rows` and right by `columns` with Shift+arrows. */
  async function selectFrom(from: string, rows: number, columns = 0): Promise<void> {
    await clickCell(page, from);
    for (let row = 0; row < rows; row++) await page.keyboard.press("Shift+ArrowDown");
    for (let column = 0; column < columns; column++) await page.keyboard.press("Shift+ArrowRight");
  }

  it("should fill the selection with a typed formula, its references adjusted per cell, and undo it at once", async () => {
    await selectFrom("F2", 2);
    await page.keyboard.type("=LEN(A2)*2");
    await page.keyboard.press("Control+Enter");
    await until(page, "F4 filled", async () => (await formula("F4")) === "=LEN(A4)*2");
    expect([await formula("F2"), await formula("F3")]).toEqual(["=LEN(A2)*2", "=LEN(A3)*2"]);
    for (const row of [2, 3, 4]) {
      const text = (await modelCell(page, "Reviews", `A${row}`)).value;
      expect(await value(`F${row}`)).toBe(String(text.length * 2));
    }
    expect(await modelSelection(page)).toBe("Reviews!F2:F4");
    expect(await activeCell(page)).toBe("F2");

    await page.keyboard.press("Control+z");
    await until(page, "the fill undone", async () => (await formula("F4")) === "");
    expect([await value("F2"), await value("F3"), await value("F4")]).toEqual(["", "", ""]);
    expect(open.errors).toEqual([]);
  }, 60_000);

  it("should fill a block of two columns with text from the formula bar", async () => {
    await selectFrom("G2", 1, 1);
    const box = await page.locator("#formula-content").boundingBox();
    if (!box) throw new Error("no formula bar");
    await page.mouse.click(box.x + 2, box.y + box.height / 2);
    await page.keyboard.type("done");
    await page.keyboard.press("Control+Enter");
    await until(page, "H3 filled", async () => (await value("H3")) === "done");
    expect([await value("G2"), await value("H2"), await value("G3")]).toEqual([
      "done",
      "done",
      "done",
    ]);
    expect(await modelSelection(page)).toBe("Reviews!G2:H3");
    expect(open.errors).toEqual([]);
  }, 60_000);

  it("should run a SPELL.RUN filled so once per row, with each row's own input", async () => {
    const before = await runsStarted();
    await selectFrom("E2", 2);
    await page.keyboard.type('=SPELL.RUN("echo", SPELL.INPUTS("n", A2), "n")');
    await page.keyboard.press("Control+Enter");
    for (const row of [2, 3, 4]) {
      const input = await value(`A${row}`);
      await until(page, `E${row}'s result`, async () => (await shown(page, `E${row}`)) === input);
    }
    expect((await runsStarted()) - before)
      .withContext("one run per row, none twice")
      .toBe(3);
    expect(open.errors).toEqual([]);
  }, 60_000);

  // A page of its own: the question, left open, holds back every run after it.
  it("should ask the spending guard when the filled formula would start more runs than it starts without asking", async () => {
    const mainPage = page;
    page = await openReadyPage(open);
    try {
      await guardAsks();
    } finally {
      await page.close();
      page = mainPage;
    }
  }, 90_000);

  async function guardAsks(): Promise<void> {
    const before = await runsStarted();
    await goTo(page, "J2:J131", "J2");
    await page.keyboard.type('=SPELL.RUN("echo", SPELL.INPUTS("n", ROW()), "n")');
    await page.keyboard.press("Control+Enter");
    await until(page, "the guard's question", () => page.locator("#allow-these").isVisible());
    expect(await page.locator("#spending-question").innerText()).toMatch(/1[0-9][0-9]/);
    expect(await formula("J131")).toBe('=SPELL.RUN("echo", SPELL.INPUTS("n", ROW()), "n")');
    // The guard starts its 100 runs without asking; the other 30 wait for the answer.
    expect((await runsStarted()) - before)
      .withContext("no more than the guard's 100 started before the answer")
      .toBeLessThanOrEqual(100);
    expect(open.errors).toEqual([]);
  }

  // A page of its own: a million cells filled and taken back leave the grid busy a while.
  it("should fill an entire column selected by a click on its header (Excel selects an entire column), and undo it", async () => {
    const own = await openReadyPage(open);
    try {
      const ownValue = async (address: string) => (await modelCell(own, "Reviews", address)).value;
      await own.locator('.jss_worksheet:visible thead td[data-x="10"]').click();
      expect(await modelSelection(own)).toBe("Reviews!K1:K1048576");
      await own.keyboard.type("hdr");
      await own.keyboard.press("Control+Enter");
      await until(
        own,
        "K1048576 filled",
        async () => (await ownValue("K1048576")) === "hdr",
        60_000
      );
      expect([await ownValue("K1"), await ownValue("K201"), await ownValue("K5000")]).toEqual([
        "hdr",
        "hdr",
        "hdr",
      ]);
      await own.keyboard.press("Control+z");
      await until(own, "the fill undone", async () => (await ownValue("K1048576")) === "", 60_000);
      expect(open.errors).toEqual([]);
    } finally {
      await own.close();
    }
  }, 150_000);
});
