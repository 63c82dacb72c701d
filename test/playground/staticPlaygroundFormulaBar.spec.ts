import type { Page } from "playwright-core";
import {
  cellSelector,
  clickCell,
  shown,
  typeInCell,
  type OpenPlayground,
  until,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";
import { activeCell, modelCell } from "./support/gridPage.js";

/**
 * Excel's formula bar as a place to edit the active cell (Chromium, the mouse and the keyboard).
 * Microsoft, "Change the Edit mode in Excel": in Edit mode you "edit cell contents by clicking in
 * the formula bar"; the bar shows "the constant value or formula stored in the active cell"
 * ("Use the formula bar in Excel"); Enter "completes a cell entry … and selects the cell below",
 * Tab "the cell to the right", Esc "cancels an entry in the cell or formula bar" ("Keyboard
 * shortcuts in Excel"); the Enter (✓) and Cancel (✗) buttons beside fx; in a formula, a click on a
 * cell at an operator puts its reference in ("Point" mode).
 */
describe("Editing a cell in the static playground's formula bar (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  const bar = () => page.locator("#formula-content");
  const caret = () => bar().evaluate((field) => (field as HTMLTextAreaElement).selectionStart);
  /** What the cell being edited shows (its editor's text), or null when none is edited. */
  const editedCell = () =>
    page.evaluate(() => {
      const field = document.querySelector<HTMLTextAreaElement>(
        ".jss_worksheet td.editor textarea"
      );
      return field ? { cell: field.closest("td")?.dataset.cell, text: field.value } : null;
    });
  /** Clicks the bar's text box at its left edge (the caret before the text) or its right end. */
  async function clickBar(where: "start" | "end"): Promise<void> {
    const box = await bar().boundingBox();
    if (!box) throw new Error("no formula bar");
    const x = where === "start" ? box.x + 1 : box.x + box.width - 4;
    await page.mouse.click(x, box.y + box.height / 2);
  }
  const runsStarted = () =>
    page.evaluate(() => {
      const { stats } = (
        window as unknown as {
          __emulator: { stats: { runsCreated: number; bulkRunsCreated: number } };
        }
      ).__emulator;
      return stats.runsCreated + stats.bulkRunsCreated;
    });

  it("should edit the active cell's formula where the bar is clicked, live in the cell, and Enter writes it, moves down and is undone by Ctrl+Z", async () => {
    await typeInCell(page, "E3", "=1+1");
    await clickCell(page, "E3");
    expect(await bar().inputValue()).toBe("=1+1");
    expect(await shown(page, "E3")).toBe("2");

    await clickBar("start");
    expect(await caret())
      .withContext("the caret where clicked")
      .toBe(0);
    expect(await editedCell()).toEqual({ cell: "E3", text: "=1+1" });
    await page.keyboard.press("End");
    await page.keyboard.type("0");
    expect(await editedCell())
      .withContext("typed, shown in the cell")
      .toEqual({
        cell: "E3",
        text: "=1+10",
      });
    await clickBar("end");
    expect(await caret()).toBe(5);
    await page.keyboard.press("Enter");
    await until(page, "E3's new value", async () => (await shown(page, "E3")) === "11");
    expect(await modelCell(page, "Reviews", "E3")).toEqual({ value: "11", formula: "=1+10" });
    expect(await activeCell(page)).toBe("E4");
    expect(await editedCell()).toBeNull();

    // The keyboard is the grid's again: Ctrl+Z takes the edit back in the model.
    await page.keyboard.press("Control+z");
    await until(page, "E3 undone", async () => (await shown(page, "E3")) === "2");
    expect(await modelCell(page, "Reviews", "E3")).toEqual({ value: "2", formula: "=1+1" });
    expect(open.errors).toEqual([]);
  }, 60_000);

  it("should move right on Tab and leave the cell as it was on Esc", async () => {
    await typeInCell(page, "F3", "abc");
    await clickCell(page, "F3");
    await clickBar("end");
    await page.keyboard.type("d");
    expect(await editedCell()).toEqual({ cell: "F3", text: "abcd" });
    await page.keyboard.press("Escape");
    await until(page, "the edit cancelled", async () => (await editedCell()) === null);
    expect(await shown(page, "F3")).toBe("abc");
    expect(await modelCell(page, "Reviews", "F3")).toEqual({ value: "abc", formula: null });
    expect(await bar().inputValue()).toBe("abc");
    expect(await activeCell(page)).toBe("F3");

    await clickBar("end");
    await page.keyboard.type("x");
    await page.keyboard.press("Tab");
    await until(page, "G3 active", async () => (await activeCell(page)) === "G3");
    expect(await shown(page, "F3")).toBe("abcx");
    expect(await modelCell(page, "Reviews", "F3")).toEqual({ value: "abcx", formula: null });
  }, 60_000);

  it("should write on the Enter button (the cell stays active) and cancel on the Cancel button", async () => {
    await clickCell(page, "F6");
    await clickBar("end");
    await page.keyboard.type("=6*7");
    await page.locator("#formula-enter").click();
    await until(page, "F6's value", async () => (await shown(page, "F6")) === "42");
    expect(await activeCell(page)).toBe("F6");

    await clickBar("end");
    await page.keyboard.type("+1");
    expect(await editedCell()).toEqual({ cell: "F6", text: "=6*7+1" });
    await page.locator("#formula-cancel").click();
    await until(page, "the edit cancelled", async () => (await editedCell()) === null);
    expect(await shown(page, "F6")).toBe("42");
    expect(await modelCell(page, "Reviews", "F6")).toEqual({ value: "42", formula: "=6*7" });
    expect(await bar().inputValue()).toBe("=6*7");
  }, 60_000);

  it("should keep text typed in the bar exactly: =, <, quotes and any script", async () => {
    const texts = [`<b>"Grüße"</b> & 'x' 你好 مرحبا`, `="<a>"&"'q'"`];
    const expected = [texts[0], `<a>'q'`];
    for (const [index, text] of texts.entries()) {
      const address = `G${10 + index}`;
      await clickCell(page, address);
      await clickBar("end");
      await page.keyboard.type(text);
      await page.keyboard.press("Enter");
      await until(page, `${address} written`, async () => (await shown(page, address)) !== "");
      expect(await shown(page, address)).toBe(expected[index]);
      const cell = await modelCell(page, "Reviews", address);
      expect(cell.formula ?? cell.value).toBe(text);
    }
  }, 60_000);

  it("should put a clicked cell's reference at the caret of a formula, and end the edit on a click elsewhere", async () => {
    await clickCell(page, "H5");
    await clickBar("end");
    await page.keyboard.type("=");
    await clickCell(page, "B3");
    expect(await bar().inputValue()).toBe("=B3");
    await page.keyboard.type("+");
    await clickCell(page, "B4");
    await clickCell(page, "B5"); // replaces the reference just put in
    expect(await bar().inputValue()).toBe("=B3+B5");
    expect(await editedCell()).toEqual({ cell: "H5", text: "=B3+B5" });
    await page.keyboard.press("Enter");
    await until(page, "H6 active", async () => (await activeCell(page)) === "H6");
    expect((await modelCell(page, "Reviews", "H5")).formula).toBe("=B3+B5");

    // Not at an insertion point: the click ends the edit (written) and selects the cell.
    await clickCell(page, "E20");
    await clickBar("end");
    await page.keyboard.type("=2*3");
    await clickCell(page, "E22");
    await until(page, "E22 active", async () => (await activeCell(page)) === "E22");
    expect(await shown(page, "E20")).toBe("6");
    expect(await editedCell()).toBeNull();
    expect(await bar().inputValue())
      .withContext("E22's input")
      .toBe("");
    // A click on the Name Box ends the edit too, written.
    await clickCell(page, "E24");
    await clickBar("end");
    await page.keyboard.type("=3*3");
    await page.locator("#formula-address").click();
    await until(page, "E24 written", async () => (await shown(page, "E24")) === "9");
    expect(await editedCell()).toBeNull();
    await page.keyboard.press("Escape");
    expect(await bar().inputValue()).toBe("=3*3");
  }, 60_000);

  it("should run a SPELL.RUN formula edited in the bar once, and an edit that changes nothing not at all", async () => {
    const formula = (row: number) =>
      `=SPELL.RUN("sentiment", SPELL.INPUTS("text", A${row}), "label")`;
    await typeInCell(page, "D2", formula(2));
    const done = async () => !["", "#BUSY!"].includes(await shown(page, "D2"));
    await until(page, "D2's result", done, 30_000);
    const before = await runsStarted();

    await clickCell(page, "D2");
    await clickBar("end");
    await page.keyboard.press("Enter");
    await page.waitForTimeout(1_500);
    expect(await runsStarted())
      .withContext("the same text")
      .toBe(before);

    await clickCell(page, "D2");
    await clickBar("end");
    await page.keyboard.press("Control+a");
    await page.keyboard.type(formula(3));
    await page.keyboard.press("Enter");
    await until(page, "the edited formula's result", done, 30_000);
    await page.waitForTimeout(1_500);
    expect(await runsStarted())
      .withContext("the new formula")
      .toBe(before + 1);
    expect((await modelCell(page, "Reviews", "D2")).formula).toBe(formula(3));
  }, 90_000);

  it("should keep a long formula inside the bar, the page's layout unmoved", async () => {
    const layout = () =>
      page.evaluate(() => ({
        bar: document.querySelector(".formula-bar")?.getBoundingClientRect().width,
        sheet: document.querySelector(".playground-sheet")?.getBoundingClientRect().width,
        pageWide: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      }));
    const before = await layout();
    await clickCell(page, "E30");
    await clickBar("end");
    await page.keyboard.insertText(`="${"long text ".repeat(60)}"`);
    expect(await layout()).toEqual(before);
    expect(before.pageWide).toBeFalse();
    await page.keyboard.press("Escape");
    expect(await page.locator(cellSelector("E30")).innerText()).toBe("");
  }, 60_000);
});
