import type { Page } from "playwright-core";
import {
  cellSelector,
  clickCell,
  shown,
  type OpenPlayground,
  until,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";
import { activeCell, modelCell } from "./support/gridPage.js";

/**
 * Excel's Point mode while a formula is typed in the cell itself or in the formula bar (Chromium,
 * the mouse and the keyboard). Microsoft, "Create a simple formula in Excel": "Type an equal sign
 * (=) … select a cell or type its address in the selected cell … enter an operator … select the
 * next cell"; in Enter mode after an operator the arrow keys point at cells (Excel's status bar
 * shows "Point"); "Switch between relative, absolute and mixed references": F4 switches the
 * reference through $A$1, A$1, $A1 and A1.
 */
describe("Pointing at cells while typing a formula in the static playground (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  const bar = () => page.locator("#formula-content");
  /** What the cell being edited shows (its editor's text), or null when none is edited. */
  const editedCell = () =>
    page.evaluate(() => {
      const field = document.querySelector<HTMLTextAreaElement>(
        ".jss_worksheet td.editor textarea"
      );
      return field ? { cell: field.closest("td")?.dataset.cell, text: field.value } : null;
    });
  /** The cells drawn with the pointed border. */
  const pointedCells = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("td.point-mode-pointed")].map(
        (cell) => cell.dataset.cell
      )
    );
  const runsStarted = () =>
    page.evaluate(() => {
      const { stats } = (
        window as unknown as {
          __emulator: { stats: { runsCreated: number; bulkRunsCreated: number } };
        }
      ).__emulator;
      return stats.runsCreated + stats.bulkRunsCreated;
    });
  async function centreOf(address: string): Promise<{ x: number; y: number }> {
    const cell = page.locator(cellSelector(address));
    await cell.scrollIntoViewIfNeeded();
    const box = await cell.boundingBox();
    if (!box) throw new Error(`no cell ${address}`);
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }
  /** Drags the mouse from one cell to another, as a person selects a range. */
  async function drag(from: string, to: string): Promise<void> {
    const start = await centreOf(from);
    const end = await centreOf(to);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(end.x, end.y, { steps: 8 });
    await page.mouse.up();
  }
  /** Ctrl+Home: the view back at A1, so that columns A to H are in the grid. */
  async function home(): Promise<void> {
    await page.keyboard.press("Control+Home");
    await until(
      page,
      "A1 in view",
      async () => (await page.locator(cellSelector("A1")).count()) > 0
    );
  }
  /** Starts typing in a cell, as a person does: a click, then the keys (no Enter). */
  async function startTyping(address: string, text: string): Promise<void> {
    await home();
    await clickCell(page, address);
    await page.keyboard.type(text);
  }

  it("should put a clicked cell's reference into the formula typed in the cell, and run the SPELL.RUN once, when Enter writes it", async () => {
    const before = await runsStarted();
    await startTyping("F2", '=SPELL.RUN("sentiment", SPELL.INPUTS("text", ');
    await clickCell(page, "A3");
    await clickCell(page, "A2"); // a second click replaces the reference
    expect(await editedCell()).toEqual({
      cell: "F2",
      text: '=SPELL.RUN("sentiment", SPELL.INPUTS("text", A2',
    });
    expect(await bar().inputValue())
      .withContext("the bar shows what is typed")
      .toBe('=SPELL.RUN("sentiment", SPELL.INPUTS("text", A2');
    expect(await activeCell(page)).toBe("F2");
    await page.keyboard.type('), "label")');
    await page.waitForTimeout(1_000);
    expect(await runsStarted())
      .withContext("nothing runs while pointing")
      .toBe(before);
    await page.keyboard.press("Enter");
    await until(page, "F2's result", async () => !["", "#BUSY!"].includes(await shown(page, "F2")));
    await page.waitForTimeout(1_500);
    expect(await runsStarted())
      .withContext("one run, once written")
      .toBe(before + 1);
    expect((await modelCell(page, "Reviews", "F2")).formula).toBe(
      '=SPELL.RUN("sentiment", SPELL.INPUTS("text", A2), "label")'
    );
    expect(await activeCell(page)).toBe("F3");
    expect(open.errors).toEqual([]);
  }, 90_000);

  it("should end the cell's edit on a click at no insertion point, as before", async () => {
    await startTyping("F20", "=2*3");
    await clickCell(page, "G22");
    await until(page, "G22 active", async () => (await activeCell(page)) === "G22");
    expect(await shown(page, "F20")).toBe("6");
    expect(await editedCell()).toBeNull();
  }, 60_000);

  it("should point with the arrow keys from the cell edited, and extend the reference with Shift+arrows", async () => {
    await startTyping("F5", "=");
    await page.keyboard.press("ArrowLeft");
    expect(await editedCell()).toEqual({ cell: "F5", text: "=E5" });
    await page.keyboard.press("ArrowUp");
    expect(await editedCell()).toEqual({ cell: "F5", text: "=E4" });
    await page.keyboard.press("Shift+ArrowUp");
    await page.keyboard.press("Shift+ArrowLeft");
    expect(await editedCell()).toEqual({ cell: "F5", text: "=D3:E4" });
    expect(await bar().inputValue()).toBe("=D3:E4");
    await page.keyboard.type("+");
    await page.keyboard.press("ArrowDown");
    expect(await editedCell()).toEqual({ cell: "F5", text: "=D3:E4+F6" });
    expect(await activeCell(page))
      .withContext("the edit stays in its cell")
      .toBe("F5");
    await page.keyboard.press("Escape");
    await until(page, "the edit cancelled", async () => (await editedCell()) === null);
    expect((await modelCell(page, "Reviews", "F5")).formula).toBeNull();
    expect(await shown(page, "F5")).toBe("");
  }, 60_000);

  it("should leave Point mode on F2 (Edit mode: the arrows move the insertion point), as Excel's F2 does", async () => {
    await startTyping("F12", "=1+");
    await page.keyboard.press("ArrowUp");
    expect(await editedCell()).toEqual({ cell: "F12", text: "=1+F11" });
    await page.keyboard.press("F2");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    expect(await editedCell())
      .withContext("the reference stays; the caret moved")
      .toEqual({ cell: "F12", text: "=1+F11" });
    await page.keyboard.type("0");
    expect(await editedCell()).toEqual({ cell: "F12", text: "=1+F011" });
    await page.keyboard.press("Escape");
    await until(page, "the edit cancelled", async () => (await editedCell()) === null);
  }, 60_000);

  it("should put a range's reference on a drag across cells, and extend it on Shift+click, in the cell", async () => {
    await startTyping("F8", "=COUNTA(");
    await drag("A2", "A10");
    expect(await editedCell()).toEqual({ cell: "F8", text: "=COUNTA(A2:A10" });
    expect(await pointedCells())
      .withContext("the border around the range pointed")
      .toEqual(["A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10"]);
    await page.keyboard.type(")");
    await page.keyboard.press("Enter");
    await until(page, "F8's count", async () => (await shown(page, "F8")) === "9");
    expect(await pointedCells())
      .withContext("no border once written")
      .toEqual([]);
    expect((await modelCell(page, "Reviews", "F8")).formula).toBe("=COUNTA(A2:A10)");

    await startTyping("F10", "=COUNTA(");
    await clickCell(page, "A2");
    await page.locator(cellSelector("B4")).click({ modifiers: ["Shift"] });
    expect(await editedCell()).toEqual({ cell: "F10", text: "=COUNTA(A2:B4" });
    await page.keyboard.type(")");
    await page.keyboard.press("Enter");
    await until(page, "F10's count", async () => (await shown(page, "F10")) === "6");
  }, 60_000);

  it("should put a range's reference on a drag across cells in the formula bar", async () => {
    await home();
    await clickCell(page, "F12");
    await bar().click();
    await page.keyboard.type("=COUNTA(");
    await drag("B2", "B5");
    expect(await bar().inputValue()).toBe("=COUNTA(B2:B5");
    expect(await editedCell()).toEqual({ cell: "F12", text: "=COUNTA(B2:B5" });
    await page.keyboard.type(")");
    await page.keyboard.press("Enter");
    await until(page, "F12's count", async () => (await shown(page, "F12")) === "4");
  }, 60_000);

  it("should cycle the reference at the caret with F4, in the cell and in the bar", async () => {
    await startTyping("F14", "=A1");
    const seen: (string | undefined)[] = [];
    for (let press = 0; press < 4; press++) {
      await page.keyboard.press("F4");
      seen.push((await editedCell())?.text);
    }
    expect(seen).toEqual(["=$A$1", "=A$1", "=$A1", "=A1"]);
    await page.keyboard.press("F4");
    await page.keyboard.press("Enter");
    await until(page, "F14 written", async () => (await shown(page, "F14")) === "text");
    expect((await modelCell(page, "Reviews", "F14")).formula).toBe("=$A$1");

    await home();
    await clickCell(page, "F16");
    await bar().click();
    await page.keyboard.type("=B1");
    await page.keyboard.press("F4");
    await page.keyboard.press("F4");
    expect(await bar().inputValue()).toBe("=B$1");
    await page.keyboard.press("Escape");
    expect(await editedCell()).toBeNull();
  }, 60_000);
});
