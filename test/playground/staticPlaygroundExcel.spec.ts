import type { Page } from "playwright-core";
import {
  clickCell,
  dragFillHandle,
  openStaticPlayground,
  shown,
  typeInCell,
  type OpenPlayground,
  until,
  openReadyPage,
} from "./support/staticPlayground.js";

/**
 * Excel's behaviour where a newcomer meets it in the static playground, each with the mouse and
 * the keyboard in Chromium, and each against the rule Microsoft documents (quoted per spec).
 * `summarize` answers the first sentence of `text`.
 */
const SUMMARY = (row: number) =>
  `=SPELL.RUN("summarize", SPELL.INPUTS("text", A${row}), "summary")`;

interface PageWorkbook {
  cell(sheet: string, address: string): { value: unknown; formula?: string };
}

function modelCell(page: Page, sheet: string, address: string) {
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

describe("Excel's behaviour in the static playground (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });
  beforeEach(async () => {
    page = await openReadyPage(open);
  }, 90_000);
  afterEach(async () => {
    await page?.close();
  }, 30_000);

  // Office.js, Excel.Range.calculate(): "Calculates a range of cells on a worksheet." The task
  // pane's "Allow these" calculates the cells that waited for the spending guard's OK.
  it("should run the waiting cells again when the spending guard's question is answered Allow", async () => {
    await page.evaluate(async () => {
      const stored = JSON.parse(localStorage.getItem("spellrun.settings") ?? "{}") as object;
      localStorage.setItem("spellrun.settings", JSON.stringify({ ...stored, runsBeforeAsking: 5 }));
    });
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    await typeInCell(page, "C2", SUMMARY(2));
    await clickCell(page, "C2");
    await dragFillHandle(page, "C12");
    const allow = page.locator("#allow-these");
    await allow.waitFor({ state: "visible", timeout: 20_000 });
    await allow.click();
    await until(page, "every row's result", async () => {
      for (let row = 2; row <= 12; row++) {
        if (/^#/.test(await shown(page, `C${row}`))) return false;
      }
      return true;
    });
    // Row 12 holds the eleventh review.
    expect(await shown(page, "C12")).toBe("Too loud at night; I returned it.");
    expect(open.errors).toEqual([]);
  }, 60_000);

  // Excel: a new sheet is a sheet like the others; formulas typed there calculate.
  it("should make the + tab a real sheet whose formulas evaluate", async () => {
    await page.locator(".jtabs-add").click();
    await page.waitForTimeout(300);
    await typeInCell(page, "A1", "=1+2");
    expect(await shown(page, "A1")).toBe("3");
    await typeInCell(page, "A2", "=A1*10");
    expect(await shown(page, "A2")).toBe("30");
  }, 30_000);

  // Excel's undo takes back what was typed; custom functions then calculate with the inputs
  // restored ("Excel's own undo does not undo custom-function results": they follow the inputs).
  it("should undo and redo typed cells in the model too, SPELL.RUN following", async () => {
    await typeInCell(page, "C2", SUMMARY(2));
    await until(page, "C2's result", async () => (await shown(page, "C2")).startsWith("Arrived"));
    const original = (await modelCell(page, "Reviews", "A2")).value;
    await typeInCell(page, "A2", "XYZ. Typed over.");
    await until(
      page,
      "the result of the typed text",
      async () => (await shown(page, "C2")) === "XYZ."
    );
    await clickCell(page, "F10");
    await page.keyboard.press("Control+z");
    await until(
      page,
      "the undone text in the model",
      async () => (await modelCell(page, "Reviews", "A2")).value === original
    );
    expect(await shown(page, "A2")).toBe(original);
    await until(page, "the result of the restored text", async () =>
      (await shown(page, "C2")).startsWith("Arrived")
    );
    await page.keyboard.press("Control+y");
    await until(
      page,
      "the redone text",
      async () => (await shown(page, "A2")) === "XYZ. Typed over."
    );
    expect((await modelCell(page, "Reviews", "A2")).value).toBe("XYZ. Typed over.");
    // Typing the old value again: the cell and SPELL.RUN agree.
    await typeInCell(page, "A2", original);
    await until(page, "the old value's result", async () =>
      (await shown(page, "C2")).startsWith("Arrived")
    );
    expect((await modelCell(page, "Reviews", "A2")).value).toBe(original);
  }, 60_000);

  // Microsoft, "Dynamic array formulas and spilled array behavior": a spilled array formula
  // returns #SPILL! when something is in its spill range, and spills as intended once the
  // blockage is removed. A cell typed in the spill range is kept, never written over.
  it("should give #SPILL! to a formula whose spill range is typed into, and spill again when it is cleared", async () => {
    await typeInCell(page, "E1", '=SPELL.BULK("summarize", A1:A6, "summary")');
    await until(page, "the spill", async () => (await shown(page, "E6")) !== "");
    await typeInCell(page, "E4", "mine");
    await until(page, "#SPILL!", async () => (await shown(page, "E1")) === "#SPILL!");
    expect(await shown(page, "E4")).toBe("mine");
    expect(await shown(page, "E6")).toBe("");
    await clickCell(page, "E1");
    expect(await page.locator("#formula-message").innerText()).toMatch(/Spill range isn't blank/);
    await clickCell(page, "E4");
    await page.keyboard.press("Delete");
    await until(page, "the spill again", async () => (await shown(page, "E1")) !== "#SPILL!");
    expect(await shown(page, "E4")).not.toBe("");
    expect(await shown(page, "E4")).not.toBe("mine");
  }, 60_000);

  // Excel: "When you copy a formula, relative cell references change" (Microsoft, "Move or copy
  // a formula").
  it("should paste a copied formula with its relative references moved", async () => {
    await typeInCell(page, "C2", "=LEN(A2)");
    await clickCell(page, "C2");
    await page.keyboard.press("Control+c");
    await clickCell(page, "D5");
    await page.keyboard.press("Control+v");
    await until(
      page,
      "the pasted formula",
      async () => (await modelCell(page, "Reviews", "D5")).formula === "=LEN(B5)"
    );
    expect(await shown(page, "D5")).toBe("2");
  }, 30_000);

  // Excel refuses a formula it cannot read, saying "There's a problem with this formula".
  it("should say why a formula that cannot be read shows #VALUE!", async () => {
    await typeInCell(page, "C2", "=SUM(A1,,");
    await clickCell(page, "C2");
    expect(await shown(page, "C2")).toBe("#VALUE!");
    expect(await page.locator("#formula-message").innerText()).toMatch(
      /^There's a problem with this formula/
    );
  }, 30_000);

  // Excel's formula bar shows the active cell of the sheet shown.
  it("should show the chosen sheet's cell in the formula bar after switching sheets", async () => {
    await typeInCell(page, "C2", "=1+1");
    await clickCell(page, "C2");
    expect(await page.locator("#formula-content").inputValue()).toBe("=1+1");
    await page.locator(".jtabs-headers > div", { hasText: "Sheet2" }).click();
    await until(
      page,
      "Sheet2's cell in the bar",
      async () => (await page.locator("#formula-content").inputValue()) !== "=1+1"
    );
    expect(await page.locator("#formula-address").innerText()).toBe("A1");
  }, 30_000);

  // Excel's formula bar shows what is being typed into a cell, as it is typed.
  it("should show in the formula bar what is being typed into a cell", async () => {
    await clickCell(page, "C3");
    await page.keyboard.type("=1+");
    await until(
      page,
      "the typing in the bar",
      async () => (await page.locator("#formula-content").inputValue()) === "=1+"
    );
    await page.keyboard.type("41");
    await until(
      page,
      "more typing in the bar",
      async () => (await page.locator("#formula-content").inputValue()) === "=1+41"
    );
    await page.keyboard.press("Enter");
    expect(await shown(page, "C3")).toBe("42");
    await clickCell(page, "C3");
    expect(await page.locator("#formula-content").inputValue()).toBe("=1+41");
  }, 30_000);

  it("should show a new sheet's cell in the formula bar after +, and the first sheet's own cell back", async () => {
    await typeInCell(page, "C12", "=2+3");
    await clickCell(page, "C12");
    expect(await page.locator("#formula-address").innerText()).toBe("C12");
    await page.locator(".jtabs-add").click();
    await until(
      page,
      "the new sheet's cell in the bar",
      async () => (await page.locator("#formula-address").innerText()) === "A1"
    );
    expect(await page.locator("#formula-content").inputValue()).toBe("");
    await page.locator(".jtabs-headers > div", { hasText: "Reviews" }).click();
    await until(
      page,
      "Reviews' cell in the bar",
      async () => (await page.locator("#formula-content").inputValue()) === "=2+3"
    );
    expect(await page.locator("#formula-address").innerText()).toBe("C12");
  }, 30_000);
});
