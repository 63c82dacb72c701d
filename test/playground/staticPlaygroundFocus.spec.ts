import fc from "fast-check";
import type { Page } from "playwright-core";
import {
  clickCell,
  newPlaygroundPage,
  openStaticPlayground,
  shown,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";
import { activeCell, goTo, modelCell } from "./support/gridPage.js";

/**
 * The keyboard and the focus on the static playground's grid as Excel has them, with Chromium's
 * mouse and keyboard: a click then typing always fills the cell clicked, however far right of
 * the first view; PageUp and PageDown move the view a screen with the active cell in it; text of
 * any script typed after the Name Box goes into the cell it selected; Ctrl+G and F5 open Excel's
 * Go To dialog; Backspace on a range clears only the active cell and edits it.
 */

const SHEET = "Reviews";

/** The text of a model cell of the demo sheet. */
async function valueAt(page: Page, address: string): Promise<string> {
  return (await modelCell(page, SHEET, address)).value;
}

/** Opens the playground afresh (its document is the demo) in a context of its own. */
async function freshPage(open: OpenPlayground): Promise<Page> {
  const page = await newPlaygroundPage(open.browser);
  await page.goto(`${open.served.origin}/`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  return page;
}

/** The column letters the grid holds now (the block of the sheet near the view). */
function heldColumns(page: Page): Promise<string[]> {
  return page
    .locator(".jss_worksheet:visible thead tr:last-child td:not(:first-child)")
    .allInnerTexts();
}

/** The columns (A to BH) whose model cell in `row` holds `text`. */
function cellsHolding(page: Page, row: number, text: string): Promise<string[]> {
  return page.evaluate(
    ([sheet, row, text]) => {
      const workbook = (
        window as unknown as {
          __playground: { workbook: { cell(sheet: string, address: string): { value: unknown } } };
        }
      ).__playground.workbook;
      const found: string[] = [];
      for (let column = 0; column < 60; column++) {
        let name = "";
        for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26))
          name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
        if (String(workbook.cell(sheet, `${name}${row}`).value) === text) found.push(name);
      }
      return found;
    },
    [SHEET, row, text] as const
  );
}

/**
 * The active cell and the view: where the active cell is on screen, the view's top and bottom
 * (below the sticky column headers, above the scroll bar) and the first row fully in view.
 */
function viewOf(page: Page): Promise<{
  active: string;
  cellTop: number | null;
  cellBottom: number | null;
  viewTop: number;
  viewBottom: number;
  topRow: number;
}> {
  return page.evaluate(() => {
    const scroller = document.querySelector(".playground-sheet") as HTMLElement;
    const active = document.getElementById("formula-address")?.textContent ?? "";
    const table = [...document.querySelectorAll<HTMLElement>(".jss_worksheet")].find(
      (worksheet) => worksheet.offsetParent !== null
    ) as HTMLElement;
    const cell = table.querySelector(`td[data-cell="${active}"]`)?.getBoundingClientRect();
    const viewTop = (table.querySelector("thead td") as HTMLElement).getBoundingClientRect().bottom;
    const viewBottom =
      scroller.getBoundingClientRect().top + scroller.clientTop + scroller.clientHeight;
    const first = document
      .elementFromPoint(scroller.getBoundingClientRect().left + 20, viewTop + 2)
      ?.closest("tr")
      ?.querySelector<HTMLElement>("td[data-cell]");
    const topRow = Number(first?.dataset.cell?.replace(/^[A-Z]+/, ""));
    // A row cut by the headers is not the first row fully in view.
    const cut = first && first.getBoundingClientRect().top < viewTop - 1 ? 1 : 0;
    return {
      active,
      cellTop: cell?.top ?? null,
      cellBottom: cell?.bottom ?? null,
      viewTop,
      viewBottom,
      topRow: topRow + cut,
    };
  });
}

describe("Keyboard and focus on the static playground's grid, as Excel (Chromium)", () => {
  let open: OpenPlayground;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });

  // Excel: Enter "completes a cell entry from the cell or the formula bar" (Microsoft, "Keyboard
  // shortcuts in Excel"): what was typed goes into the cell clicked. On a
  // fresh 1,400 × 900 page, column K is right of the first view: the click scrolls it into view,
  // the grid's block moves sideways, and the text went three columns right (into N22).
  it("should put text typed after a click into the clicked cell, far right of the first view too (K22 on a fresh page, then generated cells)", async () => {
    const page = await freshPage(open);
    try {
      const typeAt = async (address: string, text: string, context = "") => {
        await clickCell(page, address);
        expect(await activeCell(page))
          .withContext(`${context}the click on ${address}`)
          .toBe(address);
        await page.keyboard.type(text);
        await page.keyboard.press("Enter");
        await until(
          page,
          `${text} in ${address}`,
          async () => (await valueAt(page, address)) !== "",
          5_000
        ).catch(() => undefined);
        const row = Number(/\d+$/.exec(address)?.[0]);
        expect(await valueAt(page, address))
          .withContext(`${context}the model's ${address}`)
          .toBe(text);
        expect(await shown(page, address))
          .withContext(`${context}the grid's ${address}`)
          .toBe(text);
        expect(await cellsHolding(page, row, text))
          .withContext(`${context}row ${row}`)
          .toEqual([address.replace(/\d+$/, "")]);
      };
      await typeAt("K22", "hello");

      // Then cells anywhere in the block the grid holds, each click possibly moving it sideways.
      const seed = Date.now() % 1_000_000;
      const steps = fc.sample(
        fc.record({ column: fc.nat(), row: fc.integer({ min: 2, max: 110 }) }),
        { seed, numRuns: 6 }
      );
      for (const [index, step] of steps.entries()) {
        const columns = await heldColumns(page);
        const address = `${columns[step.column % columns.length]}${step.row}`;
        await typeAt(address, `text ${index}`, `seed ${seed}, step ${index}: `);
      }
    } finally {
      await page.close();
    }
  }, 90_000);
  describe("on one page", () => {
    let page: Page;

    beforeAll(async () => {
      page = await freshPage(open);
    }, 90_000);
    afterAll(async () => {
      await page?.close();
    });

    // Excel: "Page Down: Move one screen down in a worksheet", "Page Up: Move one screen up in a
    // worksheet" (Microsoft, "Keyboard shortcuts in Excel"). The view moves a screen and the
    // active cell as many rows, so it stays in view at its place on the screen.
    it("should move the view a screenful with PageDown and PageUp, the active cell in view at its place", async () => {
      await clickCell(page, "B3");
      const keys = ["PageDown", "PageDown", "PageDown", "PageUp", "PageUp", "PageDown", "PageUp"];
      let before = await viewOf(page);
      for (const [index, key] of keys.entries()) {
        await page.keyboard.press(key);
        await until(
          page,
          `the active cell moved (${key})`,
          async () => (await activeCell(page)) !== before.active
        );
        const after = await viewOf(page);
        const context = `${key} (#${index + 1}) from ${before.active} to ${after.active}`;
        expect(after.cellTop).withContext(`${context}: the active cell in the page`).not.toBeNull();
        expect(after.cellTop ?? 0)
          .withContext(`${context}: below the headers`)
          .toBeGreaterThanOrEqual(after.viewTop - 1);
        expect(after.cellBottom ?? 0)
          .withContext(`${context}: above the view's bottom`)
          .toBeLessThanOrEqual(after.viewBottom + 1);
        const step = Number(after.active.slice(1)) - Number(before.active.slice(1));
        expect(Math.abs(step)).withContext(`${context}: a screenful`).toBeGreaterThan(20);
        expect(after.topRow - before.topRow)
          .withContext(`${context}: the view moved as far`)
          .toBe(step);
        expect(Math.round((after.cellTop ?? 0) - (before.cellTop ?? 0)))
          .withContext(`${context}: at its place`)
          .toBe(0);
        before = after;
      }
    }, 60_000);
    // Excel: after an address typed in the Name Box and Enter, the selected cell has the
    // keyboard, and whatever is typed next (of any script, or an IME's text) goes into it.
    it("should put text of any script typed right after the Name Box's Enter into the cell it selected", async () => {
      await goTo(page, "D40");
      await page.keyboard.insertText("日本");
      await page.keyboard.press("Enter");
      await until(
        page,
        "日本 in D40",
        async () => (await valueAt(page, "D40")) === "日本",
        5_000
      ).catch(() => undefined);
      expect(await valueAt(page, "D40")).toBe("日本");
      await goTo(page, "E41");
      await page.keyboard.type("Ωμέγα Жук");
      await page.keyboard.press("Enter");
      await until(
        page,
        "Greek in E41",
        async () => (await valueAt(page, "E41")) !== "",
        5_000
      ).catch(() => undefined);
      expect(await valueAt(page, "E41")).toBe("Ωμέγα Жук");
      expect(await shown(page, "E41")).toBe("Ωμέγα Жук");
      expect(await activeCell(page)).toBe("E42");
    }, 60_000);
    // Excel: "Ctrl+G or F5: Display the Go To dialog box" (Microsoft, "Keyboard shortcuts in
    // Excel"): its Reference box, OK and Cancel; a reference that is not one says so and goes
    // nowhere; Esc or Cancel closes it, and the grid has the keyboard again.
    it("should open a Go To dialog with Ctrl+G and F5 that goes to its Reference on Enter, refuses a bad one, and closes with Esc or Cancel", async () => {
      const dialog = page.getByRole("dialog", { name: "Go To" });
      const reference = dialog.getByRole("textbox", { name: "Reference:" });
      await clickCell(page, "A2");
      await page.keyboard.press("Control+g");
      await until(page, "the Go To dialog", () => dialog.isVisible(), 5_000).catch(() => undefined);
      expect(await dialog.isVisible())
        .withContext("Ctrl+G opens Go To")
        .toBe(true);
      expect(
        await reference.evaluate((input) => input === document.activeElement, undefined, {
          timeout: 2_000,
        })
      )
        .withContext("the keyboard in the Reference box")
        .toBe(true);
      await page.keyboard.type("C50");
      await page.keyboard.press("Enter");
      await until(page, "C50 active", async () => (await activeCell(page)) === "C50", 5_000);
      expect(await dialog.isVisible()).toBe(false);
      // The grid has the keyboard: what is typed goes into C50.
      await page.keyboard.insertText("Gö");
      await page.keyboard.press("Enter");
      await until(page, "Gö in C50", async () => (await valueAt(page, "C50")) === "Gö", 5_000);

      await page.keyboard.press("F5");
      await until(page, "the Go To dialog (F5)", () => dialog.isVisible(), 5_000);
      await page.keyboard.type("B2:");
      await page.keyboard.press("Enter");
      await until(
        page,
        "the message",
        async () => (await dialog.getByRole("alert").innerText()) !== "",
        5_000
      );
      expect(await dialog.getByRole("alert").innerText()).toContain("Reference isn't valid");
      expect(await dialog.isVisible())
        .withContext("still open after a bad reference")
        .toBe(true);
      expect(await activeCell(page))
        .withContext("went nowhere")
        .toBe("C51");
      await page.keyboard.press("Escape");
      await until(page, "Esc closed it", async () => !(await dialog.isVisible()), 5_000);
      expect(await activeCell(page)).toBe("C51");
      await page.keyboard.insertText("Ωx");
      await page.keyboard.press("Enter");
      await until(page, "Ωx in C51", async () => (await valueAt(page, "C51")) === "Ωx", 5_000);

      await page.keyboard.press("Control+g");
      await until(page, "the Go To dialog again", () => dialog.isVisible(), 5_000);
      await reference.fill("Z9");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await until(page, "Cancel closed it", async () => !(await dialog.isVisible()), 5_000);
      expect(await activeCell(page)).toBe("C52");
      await page.keyboard.press("Control+g");
      await reference.fill("Sheet2!B3");
      await dialog.getByRole("button", { name: "OK" }).click();
      await until(page, "B3 of Sheet2", async () => (await activeCell(page)) === "B3", 5_000);
      expect(await dialog.isVisible()).toBe(false);
      await page.locator(".jtabs-headers > div", { hasText: "Reviews" }).click();
    }, 60_000);

    // Excel: Backspace "clears the content of the active cell" and starts editing it; Delete
    // "removes the cell contents … from selected cells" (Microsoft, "Keyboard shortcuts in
    // Excel"). So Backspace on C5:D7 empties C5 only, in edit mode, and Ctrl+Z brings it back.
    it("should clear only the active cell of a selected range with Backspace, in edit mode, undoably", async () => {
      for (const [address, text] of [
        ["C5", "c5"],
        ["D5", "d5"],
        ["C6", "c6"],
        ["D7", "d7"],
      ]) {
        await goTo(page, address);
        await page.keyboard.type(text);
        await page.keyboard.press("Enter");
        await until(
          page,
          `${text} typed`,
          async () => (await valueAt(page, address)) === text,
          5_000
        );
      }
      await clickCell(page, "C5");
      await page.keyboard.down("Shift");
      await clickCell(page, "D7");
      await page.keyboard.up("Shift");
      await page.keyboard.press("Backspace");
      const editor = page.locator(
        ".jss_worksheet:visible td.editor input, .jss_worksheet:visible td.editor textarea"
      );
      await until(page, "C5 in edit mode", async () => (await editor.count()) === 1, 5_000).catch(
        () => undefined
      );
      expect(await editor.count())
        .withContext("an editor is open")
        .toBe(1);
      expect(await page.locator(".jss_worksheet:visible td.editor").getAttribute("data-cell")).toBe(
        "C5"
      );
      expect(await editor.inputValue())
        .withContext("the editor is empty")
        .toBe("");
      expect(await page.locator("#formula-content").inputValue())
        .withContext("the formula bar")
        .toBe("");
      expect(await valueAt(page, "D5")).toBe("d5");
      expect(await valueAt(page, "C6")).toBe("c6");
      expect(await valueAt(page, "D7")).toBe("d7");
      await page.keyboard.press("Enter");
      await until(page, "C5 cleared", async () => (await valueAt(page, "C5")) === "", 5_000);
      expect(await valueAt(page, "D5")).toBe("d5");
      expect(await valueAt(page, "C6")).toBe("c6");
      expect(await valueAt(page, "D7")).toBe("d7");
      await page.keyboard.press("Control+z");
      await until(page, "C5 back", async () => (await valueAt(page, "C5")) === "c5", 5_000);
      expect(await shown(page, "C5")).toBe("c5");
      // Backspace then typing replaces the active cell's content, as in Excel.
      await clickCell(page, "D5");
      await page.keyboard.press("Backspace");
      await page.keyboard.type("new");
      await page.keyboard.press("Enter");
      await until(page, "new in D5", async () => (await valueAt(page, "D5")) === "new", 5_000);
      expect(await valueAt(page, "C5")).toBe("c5");
    }, 60_000);
  });
});
