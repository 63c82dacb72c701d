import type { Page } from "playwright-core";
import {
  clickCell,
  newPlaygroundPage,
  openStaticPlayground,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";
import { activeCell, goTo, modelCell, modelSelection } from "./support/gridPage.js";

/**
 * Keys on the static playground's grid as Excel answers them, with the mouse and the keyboard in
 * Chromium: Delete on a whole column or row chosen by its header clears it (never deletes it);
 * a first keystroke that is not plain ASCII starts editing the selected cell; an insert Excel
 * refuses is refused with Excel's message and leaves the grid as it was; Enter and Tab move within
 * a selected range; Shift+PageDown and Shift+PageUp extend the selection a screen; arrow keys
 * end an entry typed into a cell (Enter mode) and move the insertion point after F2 (Edit mode);
 * Ctrl+Space, Shift+Space and Ctrl+A select a column, a row, the current region and the sheet.
 */

/** The grid's cursor: the model address of the cell the grid shows active. */
function gridCursor(page: Page): Promise<string | null> {
  return page
    .locator(".jss_worksheet:visible td.highlight-selected")
    .first()
    .getAttribute("data-cell");
}

/** Goes to a cell with the Name Box and types a value into it from the keyboard. */
async function typeAt(page: Page, address: string, text: string): Promise<void> {
  await goTo(page, address);
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
  await until(
    page,
    `${text} in ${address}`,
    async () => (await modelCell(page, "Reviews", address)).value === text
  );
}

/** The value of a cell of the demo sheet in the model. */
async function valueAt(page: Page, address: string): Promise<string> {
  return (await modelCell(page, "Reviews", address)).value;
}

describe("Keys on the static playground's grid (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;
  let dialogs: string[];

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });
  beforeEach(async () => {
    // A context of its own: the demo afresh (the page keeps its document in its storage).
    page = await newPlaygroundPage(open.browser);
    dialogs = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${open.served.origin}/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  }, 90_000);
  afterEach(async () => {
    await page?.close();
  }, 30_000);

  // Excel's Delete clears the contents of the selection; a column chosen by its header is all
  // 1,048,576 of its cells, a row all 16,384 of its cells; nothing is deleted, no question asked,
  // and Ctrl+Z brings every cell back.
  it("should clear a whole column, then a whole row, chosen by its header with Delete, and undo each with Ctrl+Z", async () => {
    await typeAt(page, "B100000", "far below");
    await typeAt(page, "XFD4", "far right");
    await goTo(page, "A1");
    const [a3, b3, a4, b4, a5] = await Promise.all(
      ["A3", "B3", "A4", "B4", "A5"].map((address) => valueAt(page, address))
    );
    expect(b3).toBe("en");

    await page.locator('.jss_worksheet:visible thead td[data-x="1"]').click();
    await page.keyboard.press("Delete");
    await until(page, "column B cleared", async () => (await valueAt(page, "B3")) === "");
    expect(await valueAt(page, "B100000")).toBe("");
    expect(await valueAt(page, "A3")).toBe(a3);
    expect(await valueAt(page, "A5")).toBe(a5);
    await page.keyboard.press("Control+z");
    await until(page, "column B back", async () => (await valueAt(page, "B3")) === b3);
    expect(await valueAt(page, "B100000")).toBe("far below");

    await goTo(page, "A1");
    await page.locator('.jss_worksheet:visible tbody td.jss_row[data-y="3"]').click();
    await page.keyboard.press("Delete");
    await until(page, "row 4 cleared", async () => (await valueAt(page, "A4")) === "");
    expect(await valueAt(page, "B4")).toBe("");
    expect(await valueAt(page, "XFD4")).toBe("");
    expect(await valueAt(page, "A5")).toBe(a5);
    await page.keyboard.press("Control+z");
    await until(page, "row 4 back", async () => (await valueAt(page, "A4")) === a4);
    expect(await valueAt(page, "B4")).toBe(b4);
    expect(await valueAt(page, "XFD4")).toBe("far right");
    expect(dialogs).toEqual([]);
  }, 90_000);

  // Excel starts editing a selected cell with any character typed on it, of any script or from
  // an IME (Chromium sends such text as input without a keydown of its key), and a click on a
  // cell takes the keyboard back from the Name Box.
  it("should start editing a selected cell with a first character that is not plain ASCII, after a click or the Name Box", async () => {
    await clickCell(page, "E6");
    await page.keyboard.type("Жук");
    await page.keyboard.press("Enter");
    await until(page, "Жук in E6", async () => (await valueAt(page, "E6")) === "Жук");
    await goTo(page, "E7");
    await clickCell(page, "E9");
    await page.keyboard.type("日本語");
    await page.keyboard.press("Enter");
    await until(page, "日本語 in E9", async () => (await valueAt(page, "E9")) === "日本語");
    // Enter moved on to E10, whose first keystroke starts its edit too.
    await page.keyboard.type("émile ß");
    await page.keyboard.press("Enter");
    await until(page, "émile ß in E10", async () => (await valueAt(page, "E10")) === "émile ß");
    expect(await activeCell(page)).toBe("E11");
  }, 60_000);

  // Excel refuses to insert a column that would push nonblank cells past XFD, with its message,
  // and the sheet stays as it was.
  it("should refuse a column insert that would push XFD's value off the sheet with Excel's message, the grid unchanged", async () => {
    await typeAt(page, "XFC1", "c");
    await typeAt(page, "XFD1", "d");
    const headers = () =>
      page.locator(".jss_worksheet:visible thead tr:last-child td").allInnerTexts();
    const before = await headers();
    await page
      .locator(".jss_worksheet:visible thead td", { hasText: /^XFC$/ })
      .click({ button: "right" });
    await page.locator(".jss_contextmenu div", { hasText: "Insert Sheet Columns" }).click();
    await until(page, "Excel's message", async () => dialogs.length > 0);
    expect(dialogs).toEqual([
      "To prevent possible loss of data, Excel cannot shift nonblank cells off of the worksheet.",
    ]);
    expect(await headers()).toEqual(before);
    expect(await valueAt(page, "XFC1")).toBe("c");
    expect(await valueAt(page, "XFD1")).toBe("d");
    expect(await page.getByText("Something went wrong").count()).toBe(0);
  }, 60_000);

  // Excel sorts the current region around the selection (the demo's A1:B37, its header row
  // kept), never a value far below it, and ignores case.
  it("should sort by a column header the data region only, ignoring case", async () => {
    await typeAt(page, "A100000", "aaa far below");
    await typeAt(page, "A38", "!Zeta");
    await typeAt(page, "A39", "!alpha");
    await goTo(page, "A1");
    await page
      .locator(".jss_worksheet:visible thead td", { hasText: /^A$/ })
      .click({ button: "right" });
    await page.getByText("Sort A to Z", { exact: true }).click();
    await until(page, "the sorted rows", async () => (await valueAt(page, "A3")) === "!Zeta");
    expect(await valueAt(page, "A2")).toBe("!alpha");
    expect(await valueAt(page, "A1")).not.toBe("");
    expect(await valueAt(page, "A100000")).toBe("aaa far below");
  }, 60_000);

  // Excel (Microsoft, "Keyboard shortcuts in Excel", moving within a selected range): Enter
  // "from top to bottom within the selected range", Shift+Enter "from bottom to top", Tab "from
  // left to right", Shift+Tab "from right to left"; the range stays selected.
  it("should move the active cell within a selected range with Enter, Shift+Enter, Tab and Shift+Tab, keeping the range", async () => {
    await clickCell(page, "B3");
    await page.keyboard.press("Shift+ArrowDown");
    await page.keyboard.press("Shift+ArrowDown");
    await page.keyboard.press("Shift+ArrowRight");
    await until(page, "B3:C5 selected", async () => (await modelSelection(page)).endsWith("B3:C5"));
    const steps: [string, string][] = [
      ["Enter", "B4"],
      ["Enter", "B5"],
      ["Enter", "C3"], // the next column's top
      ["Shift+Enter", "B5"],
      ["Tab", "C5"],
      ["Tab", "B3"], // after the last cell, the first
      ["Shift+Tab", "C5"],
    ];
    for (const [key, active] of steps) {
      await page.keyboard.press(key);
      await until(page, `${active} after ${key}`, async () => (await activeCell(page)) === active);
      expect(await modelSelection(page))
        .withContext(`the range after ${key}`)
        .toMatch(/B3:C5$/);
      expect(await gridCursor(page))
        .withContext(`the grid's active cell after ${key}`)
        .toBe(active);
    }
    // Typed into the active cell, Enter writes it and moves on within the range.
    await page.keyboard.type("=LEN(B5)");
    await page.keyboard.press("Enter");
    const formulaAt = async (address: string) =>
      (await modelCell(page, "Reviews", address)).formula;
    await until(page, "a formula in C5", async () => (await formulaAt("C5")) === "=LEN(B5)");
    await until(page, "B3 active", async () => (await activeCell(page)) === "B3");
    expect(await modelSelection(page)).toMatch(/B3:C5$/);
    expect(await valueAt(page, "C6")).toBe("");
    // A copy with the active cell moved within the range is the whole range's, its formulas too.
    await page.keyboard.press("Enter");
    await until(page, "B4 active", async () => (await activeCell(page)) === "B4");
    const b3 = await valueAt(page, "B3");
    await page.keyboard.press("Control+c");
    await clickCell(page, "F3");
    await page.keyboard.press("Control+v");
    await until(page, "F3 pasted", async () => (await valueAt(page, "F3")) === b3);
    expect(await formulaAt("G5")).toBe("=LEN(F5)");
  }, 60_000);

  // After Enter or Tab moved the active cell within a range, the range is still the selection
  // every range action acts on: Shift+arrows "extend the selection of cells by one cell" from its
  // anchor (Microsoft, "Keyboard shortcuts in Excel"), the active cell staying; a double-click on
  // the fill handle fills the whole range down; "Delete Sheet Rows" deletes all its rows.
  it("should keep the whole range for Shift+arrows, the fill handle and Delete Sheet Rows after Enter or Tab moved the active cell within it", async () => {
    await clickCell(page, "B3");
    await page.keyboard.press("Shift+ArrowDown");
    await page.keyboard.press("Shift+ArrowDown");
    await page.keyboard.press("Shift+ArrowRight");
    await until(page, "B3:C5 selected", async () => (await modelSelection(page)).endsWith("B3:C5"));
    await page.keyboard.press("Enter");
    await until(page, "B4 active", async () => (await activeCell(page)) === "B4");
    await page.keyboard.press("Shift+ArrowDown");
    await until(page, "a range", async () => !(await modelSelection(page)).endsWith("B3:C5"));
    expect(await modelSelection(page)).toMatch(/!B3:C6$/);
    expect(await activeCell(page)).toBe("B4");
    await page.keyboard.press("Shift+ArrowUp");
    await page.keyboard.press("Shift+ArrowUp");
    await until(page, "B3:C4", async () => (await modelSelection(page)).endsWith("!B3:C4"));
    expect(await activeCell(page)).toBe("B4");
    // F2 and typing edit the active cell, not the range's first one.
    const editor = page.locator(".jss_worksheet:visible td.editor");
    const b4 = await valueAt(page, "B4");
    await page.keyboard.press("F2");
    await until(page, "B4 edited", async () => (await editor.getAttribute("data-cell")) === "B4");
    expect(await editor.locator("input, textarea").inputValue()).toBe(b4);
    await page.keyboard.press("Escape");
    await page.keyboard.type("x");
    await until(page, "B4 typed in", async () => (await editor.getAttribute("data-cell")) === "B4");
    expect(await editor.locator("input, textarea").inputValue()).toBe("x");
    await page.keyboard.press("Escape");
    expect(await valueAt(page, "B4")).toBe(b4);

    // The demo's data is A1:B37: the fill handle of C2:D2, with D2 active, fills both columns.
    const formulaAt = async (address: string) =>
      (await modelCell(page, "Reviews", address)).formula;
    for (const [address, formula] of [
      ["C2", "=LEN(B2)"],
      ["D2", "=LEN(A2)"],
    ]) {
      await goTo(page, address);
      await page.keyboard.type(formula);
      await page.keyboard.press("Enter");
      await until(
        page,
        `${formula} in ${address}`,
        async () => (await formulaAt(address)) === formula
      );
    }
    await clickCell(page, "C2");
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Tab");
    await until(page, "D2 active", async () => (await activeCell(page)) === "D2");
    const corner = await page.locator(".jss_corner:visible").first().boundingBox();
    if (!corner) throw new Error("no fill handle");
    await page.mouse.dblclick(corner.x + corner.width / 2, corner.y + corner.height / 2);
    await until(page, "D37 filled", async () => (await formulaAt("D37")) === "=LEN(A37)");
    expect(await formulaAt("C37")).toBe("=LEN(B37)");

    // Rows 5 to 7 selected, A6 active: the menu's Delete Sheet Rows deletes the three rows.
    const eighth = await valueAt(page, "A8");
    await clickCell(page, "A5");
    await page.keyboard.press("Shift+ArrowDown");
    await page.keyboard.press("Shift+ArrowDown");
    await page.keyboard.press("Enter");
    await until(page, "A6 active", async () => (await activeCell(page)) === "A6");
    await page.locator(".jss_worksheet:visible td[data-cell='A6']").click({ button: "right" });
    await page.locator(".jss_contextmenu div", { hasText: "Delete Sheet Rows" }).click();
    await until(page, "rows 5 to 7 gone", async () => (await valueAt(page, "A5")) === eighth);
    expect(dialogs).toEqual([]);
  }, 90_000);

  // Excel: typing into a cell starts Enter mode, where an arrow key writes the entry and moves
  // to the next cell; F2 or a double-click starts Edit mode, where the arrow keys move the
  // insertion point; F2 switches between the two (Microsoft, "Keyboard shortcuts in Excel").
  it("should write an entry and move on with an arrow key in Enter mode, and move the insertion point in Edit mode (F2, a double-click)", async () => {
    const editor = page.locator(".jss_worksheet:visible td.editor input, td.editor textarea");
    await clickCell(page, "D3");
    await page.keyboard.type("ab");
    await page.keyboard.press("ArrowDown");
    await until(page, "ab in D3", async () => (await valueAt(page, "D3")) === "ab");
    await until(page, "D4 active", async () => (await activeCell(page)) === "D4");
    // F2: Edit mode, the arrows stay within the text.
    await page.keyboard.press("F2");
    await page.keyboard.type("xy");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.type("1");
    await page.keyboard.press("ArrowDown");
    expect(await editor.inputValue()).toBe("x1y");
    await page.keyboard.press("Enter");
    await until(page, "x1y in D4", async () => (await valueAt(page, "D4")) === "x1y");
    // Typed (Enter mode), then F2 (Edit mode): the arrow moves the insertion point.
    await until(page, "D5 active", async () => (await activeCell(page)) === "D5");
    await page.keyboard.type("pq");
    await page.keyboard.press("F2");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.type("-");
    await page.keyboard.press("Enter");
    await until(page, "p-q in D5", async () => (await valueAt(page, "D5")) === "p-q");
    // A double-click edits in Edit mode.
    await page.locator(".jss_worksheet:visible td[data-cell='D3']").dblclick();
    await until(page, "D3 edited", () => editor.isVisible());
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.type("Z");
    await page.keyboard.press("Enter");
    await until(page, "aZb in D3", async () => (await valueAt(page, "D3")) === "aZb");
    // A formula not at a point where a reference goes in (Point mode): written, and on to F3.
    await clickCell(page, "E3");
    await page.keyboard.type("=1+2");
    await page.keyboard.press("ArrowRight");
    await until(page, "3 in E3", async () => (await valueAt(page, "E3")) === "3");
    expect(await activeCell(page)).toBe("F3");
  }, 60_000);

  // Excel (Microsoft, "Keyboard shortcuts in Excel"): Ctrl+Space "select an entire column",
  // Shift+Space "select an entire row", Ctrl+A the current region, pressed again the whole sheet;
  // the active cell stays.
  it("should select the column with Ctrl+Space, the row with Shift+Space, and the current region then the sheet with Ctrl+A", async () => {
    const selected = async (range: string) => {
      await until(page, range, async () => (await modelSelection(page)) === `Reviews!${range}`);
      expect(await activeCell(page)).toBe("B5");
    };
    await clickCell(page, "B5");
    await page.keyboard.press("Control+Space");
    await selected("B1:B1048576");
    await clickCell(page, "B5");
    await page.keyboard.press("Shift+Space");
    await selected("A5:XFD5");
    expect(await page.locator(".jss_worksheet:visible td.editor").count()).toBe(0);
    await clickCell(page, "B5");
    await page.keyboard.press("Control+a");
    await selected("A1:B37");
    await page.keyboard.press("Control+a");
    await selected("A1:XFD1048576");
  }, 60_000);

  // Excel: a click on a cell, then Shift and a click on another, selects the range between them,
  // from the first cell (the anchor) however far the view went in between.
  it("should extend the selection from its anchor with Shift+Click, after a scroll far down", async () => {
    await clickCell(page, "B3");
    await page.locator(".playground-sheet").evaluate((view) => (view.scrollTop = 24 * 3_000));
    const far = page.locator(".jss_worksheet:visible td[data-cell='C3005']");
    await until(page, "row 3005 in view", () => far.isVisible());
    await far.click({ modifiers: ["Shift"] });
    await until(page, "a range", async () => (await modelSelection(page)) !== "Reviews!B3");
    expect(await modelSelection(page)).toBe("Reviews!B3:C3005");
    expect(await activeCell(page)).toBe("B3");
  }, 60_000);

  // Excel: Shift+PageDown "extends the selection down one screen", Shift+PageUp up one screen.
  it("should extend the selection a screen down with Shift+PageDown and back with Shift+PageUp", async () => {
    await clickCell(page, "B3");
    await page.keyboard.press("Shift+PageDown");
    await until(page, "a range", async () => /B3:B\d+$/.test(await modelSelection(page)));
    const last = Number(/B3:B(\d+)$/.exec(await modelSelection(page))?.[1]);
    expect(last).toBeGreaterThan(10);
    expect(await activeCell(page)).toBe("B3");
    await page.keyboard.press("Shift+PageUp");
    await until(page, "B3 alone", async () => /!B3$/.test(await modelSelection(page)));
    expect(await activeCell(page)).toBe("B3");
  }, 60_000);

  // Excel's PageDown moves the active cell one screen down, PageUp one screen up.
  it("should move the active cell a screen down with PageDown and back up with PageUp", async () => {
    await clickCell(page, "B3");
    await page.keyboard.press("PageDown");
    await until(page, "a row below", async () => (await activeCell(page)) !== "B3");
    const down = Number((await activeCell(page)).slice(1));
    expect(down).toBeGreaterThan(10);
    await page.keyboard.press("PageUp");
    await until(page, "B3 again", async () => (await activeCell(page)) === "B3");
  }, 60_000);
});
