import type { Page } from "playwright-core";
import {
  clickCell,
  dragFillHandle,
  newPlaygroundPage,
  openStaticPlayground,
  shown,
  typeInCell,
  type OpenPlayground,
  until as untilShared,
} from "./support/staticPlayground.js";

/**
 * The static playground keeps its document across a reload, as a saved Excel file would: cells,
 * formulas, sheets and the document settings the add-in saved (its document id, the spending
 * guard's window, a stored job), with "Reset to demo" to start again. And structural edits
 * across a SPELL.BULK spill behave as Excel's. With the mouse and the keyboard, in Chromium.
 */
const SUMMARY = (row: number) =>
  `=SPELL.RUN("summarize", SPELL.INPUTS("text", A${row}), "summary")`;

/** The shared poll, with this file's longer wait (30 s). */
const until = (page: Page, what: string, check: () => Promise<boolean>, timeoutMs = 30_000) =>
  untilShared(page, what, check, timeoutMs);

type PageWindow = {
  __playground: {
    workbook: {
      values(sheet: string, address: string): unknown[][];
      cell(sheet: string, address: string): { value: unknown; formula?: string };
      sheetNames(): string[];
    };
  };
  __emulator: {
    stats: { runsCreated: number; bulkRunsCreated: number; requests: Record<string, number> };
  };
};

/** Runs the page's emulator started since the page (re)loaded: single and bulk rows. */
function runsStarted(page: Page): Promise<number> {
  return page.evaluate(() => {
    const { stats } = (window as unknown as PageWindow).__emulator;
    return stats.runsCreated + stats.bulkRunsCreated;
  });
}

function documentId(page: Page): Promise<unknown> {
  return page.evaluate(() => Office.context.document.settings.get("spellrun.documentId"));
}

async function ready(page: Page): Promise<void> {
  await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
}

/** Reloads as a person does, answering "Leave" should the page ask (runs in flight). */
async function reload(page: Page): Promise<void> {
  await until(page, "the document saved", async () =>
    /^Saved/.test(await page.locator("#playground-saved").innerText())
  );
  await page.reload();
  await ready(page);
}

/**
 * "Reset to demo" as a person does (the question answered): waits for the page to load again,
 * not for the old page's ready mark, which is still there while the reset is under way.
 */
async function resetToDemo(page: Page): Promise<void> {
  const loaded = page.waitForEvent("load", { timeout: 60_000 });
  await page.locator("#playground-reset").click();
  await loaded;
  await ready(page);
}

describe("The static playground's document across a reload (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  });
  beforeEach(async () => {
    page = await newPlaygroundPage(open.browser);
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${open.served.origin}/`);
    await ready(page);
  }, 90_000);
  afterEach(async () => {
    await page?.close();
  }, 30_000);

  it("should keep cells, formulas, a new sheet and the document's id across a reload, and reset to the demo", async () => {
    await typeInCell(page, "C2", SUMMARY(2));
    await until(page, "C2's result", async () => (await shown(page, "C2")).startsWith("Arrived"));
    await typeInCell(page, "F3", "kept");
    await page.locator(".jtabs-add").click();
    await page.waitForTimeout(300);
    await typeInCell(page, "A1", "=1+2");
    const id = await documentId(page);
    expect(typeof id).toBe("string");

    await reload(page);
    // Reopened on the sheet it was left on, as Excel reopens a saved workbook; then Reviews.
    expect(await page.locator(".jtabs-headers .jtabs-selected").innerText()).not.toBe("Reviews");
    await page.locator(".jtabs-headers > div", { hasText: "Reviews" }).click();
    // The remembered result (Excel shows #BUSY! while a cell recalculates on opening).
    await until(page, "C2's result again", async () => !/#BUSY!/.test(await shown(page, "C2")));
    expect(await shown(page, "C2")).toBe("Arrived a day early and works perfectly.");
    expect(await shown(page, "F3")).toBe("kept");
    const model = await page.evaluate(() => {
      const { workbook } = (window as unknown as PageWindow).__playground;
      const added = workbook.sheetNames()[workbook.sheetNames().length - 1];
      return { c2: workbook.cell("Reviews", "C2").formula, added: workbook.values(added, "A1") };
    });
    expect(model).toEqual({ c2: SUMMARY(2), added: [[3]] });
    expect(await documentId(page)).toBe(id);
    // The result was known: opening the document ran nothing again.
    expect(await runsStarted(page)).toBe(0);

    // A change typed just before the reset is gone after it too.
    await typeInCell(page, "F4", "typed just before");
    await resetToDemo(page);
    expect(await shown(page, "C2")).toBe("");
    expect(await shown(page, "F3")).toBe("");
    expect(await shown(page, "F4")).toBe("");
    expect(open.errors).toEqual([]);
  }, 90_000);

  // The spending guard counts runs in a 10-minute window per document; the document's id is
  // saved with it, so after a reload the guard finds its window and asks, instead of starting
  // a fresh count.
  it("should keep the spending guard's window across a reload: it asks again within it", async () => {
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem("spellrun.settings") ?? "{}") as object;
      localStorage.setItem("spellrun.settings", JSON.stringify({ ...stored, runsBeforeAsking: 5 }));
    });
    await page.reload();
    await ready(page);
    await typeInCell(page, "C2", SUMMARY(2));
    await clickCell(page, "C2");
    await dragFillHandle(page, "C5");
    await until(page, "four results", async () => !/^#/.test(await shown(page, "C5")));
    expect(await page.locator("#allow-these").isVisible()).toBeFalse();

    await reload(page);
    // Four more runs (the language column's texts): one fits in the window's five.
    await typeInCell(page, "D2", SUMMARY(2).replace("A2", "B2"));
    await clickCell(page, "D2");
    await dragFillHandle(page, "D5");
    const allow = page.locator("#allow-these");
    await allow.waitFor({ state: "visible", timeout: 20_000 });
    expect(await runsStarted(page)).toBe(1);
  }, 90_000);

  // Closing and reopening a workbook while its cells run (Excel reloading the add-in): the
  // reopened cells watch the runs started before, as the pane's Resume does for its bulk.
  it("should not start the runs of SPELL.RUN cells again when the page reloads while they are going", async () => {
    await page.locator("#playground-pace").selectOption("minute");
    await typeInCell(page, "C2", SUMMARY(2));
    await clickCell(page, "C2");
    await dragFillHandle(page, "C6");
    await until(page, "five runs started", async () => (await runsStarted(page)) === 5);
    await page.waitForTimeout(1_000);
    expect(await shown(page, "C6")).toMatch(/#BUSY!/);

    await reload(page);
    // The cells calculate again on opening and find their runs: nothing started, nothing cancelled.
    await until(page, "the cells busy again", async () => /#BUSY!/.test(await shown(page, "C6")));
    await page.waitForTimeout(2_000);
    const after = await page.evaluate(() => (window as unknown as PageWindow).__emulator.stats);
    expect(after.runsCreated + after.bulkRunsCreated).toBe(0);
    expect(after.requests.cancelBulk ?? 0).toBe(0);
    expect(after.requests.getBulkRuns ?? 0).toBeGreaterThan(0);
    expect(open.errors).toEqual([]);
  }, 90_000);

  // A real service keeps its runs while Excel reloads, and so does the in-page emulator (its
  // runs are saved in the page): Resume finds the bulk run and finishes it, no row expired,
  // none started twice.
  it("should let a pane run reloaded mid-way be resumed and finish, no row expired or run again", async () => {
    await page.locator("#playground-pace").selectOption("variable");
    await clickCell(page, "A1");
    await page.keyboard.down("Shift");
    await clickCell(page, "A37");
    await page.keyboard.up("Shift");
    await page.locator("#spell-id").click();
    await page.keyboard.type("sentiment");
    await page.keyboard.press("Enter");
    await page.locator("#use-selection").click();
    await until(page, "the plan", async () =>
      /will start/.test(await page.locator("#plan-summary").innerText())
    );
    await page.locator("#run").click();
    const labels = () =>
      page.evaluate(() => {
        const { workbook } = (window as unknown as PageWindow).__playground;
        const rows = workbook.values("Reviews", "A1:H37");
        const column = rows[0].indexOf("label");
        return rows.slice(1).map((row) => (column < 0 ? "" : String(row[column])));
      });
    const finished = (texts: string[]) =>
      texts.filter((text) => /^(positive|negative|neutral)$/.test(text)).length;
    await until(page, "some rows finished", async () => finished(await labels()) >= 2, 40_000);
    const startedBefore = await runsStarted(page);

    await reload(page);
    const kept = await labels();
    expect(finished(kept)).toBeLessThan(36);
    const resume = page.locator("#resume-run");
    await resume.waitFor({ state: "visible", timeout: 20_000 });
    await resume.click();
    await until(page, "every row finished", async () => finished(await labels()) === 36, 90_000);
    expect((await labels()).filter((label) => /expired/i.test(label))).toEqual([]);
    expect(await page.locator("#retry").isVisible()).toBeFalse();
    // Each row was started once: before the reload, or by Resume for rows not yet started.
    expect(startedBefore + (await runsStarted(page))).toBe(36);
    const after = await labels();
    kept.forEach((label, row) => {
      if (finished([label]) === 1)
        expect(after[row])
          .withContext(`row ${row + 2}`)
          .toBe(label);
    });
    expect(await page.locator("body").innerText()).not.toMatch(/expired/i);
  }, 180_000);

  // The pace chosen is the page's setting in use: a reload goes on at it, as the runs do.
  it('should keep the "Spells take" choice across a reload, and run spells at that pace', async () => {
    await page.locator("#playground-pace").selectOption("minute");
    await reload(page);
    expect(await page.locator("#playground-pace").inputValue()).toBe("minute");
    await typeInCell(page, "C2", SUMMARY(2));
    // Fast spells answer in about a second; at about a minute, C2 still runs after three.
    await page.waitForTimeout(3_000);
    expect(await shown(page, "C2")).toBe("#BUSY!");
  }, 90_000);

  it("should forget the emulator's runs with Reset to demo", async () => {
    await typeInCell(page, "C2", SUMMARY(2));
    await until(page, "C2's result", async () => (await shown(page, "C2")).startsWith("Arrived"));
    await until(page, "the runs saved", () =>
      page.evaluate(() => localStorage.getItem("spellrun.playground.emulatorRuns") !== null)
    );
    await resetToDemo(page);
    const size = await page.evaluate(
      () => (window as unknown as { __emulator: { store: { size: object } } }).__emulator.store.size
    );
    expect(size).toEqual({ runs: 0, groups: 0 });
  }, 90_000);

  // Microsoft, "Dynamic array formulas and spilled array behavior": the formula is in the anchor
  // cell and the spill range is computed from it. Deleting a column left of the spill moves it
  // whole (no #SPILL!, no plain values left), deleting its anchor's column leaves nothing of it.
  it("should spill SPELL.BULK again when columns are deleted across it, leaving nothing behind", async () => {
    const block = () =>
      page.evaluate(() =>
        (window as unknown as PageWindow).__playground.workbook.values("Reviews", "C1:G37")
      );
    const deleteColumn = async (x: number) => {
      await page
        .locator(`.jss_worksheet:visible thead td[data-x="${x}"]`)
        .click({ button: "right" });
      await page.getByText("Delete Sheet Columns", { exact: true }).click();
    };
    await typeInCell(page, "E1", '=SPELL.BULK("sentiment", A1:A37, "label, score")');
    await until(page, "36 scores", async () => /\d/.test(await shown(page, "F37")));
    const spilled = (await block()).map((row) => row.slice(2, 4)); // E and F

    await deleteColumn(3); // D: the spill moves to D:E
    // The model's cells, not the grid's text: the moved cells show a score at E37 before the
    // formula engine has spilled again from the anchor.
    const movedLeft = JSON.stringify(spilled.map((pair) => ["", ...pair, "", ""]));
    await until(page, "the spill in D:E", async () => JSON.stringify(await block()) === movedLeft);
    expect(await block()).toEqual(spilled.map((pair) => ["", ...pair, "", ""]));
    expect(
      await page.evaluate(
        () => (window as unknown as PageWindow).__emulator.stats.requests.bulkStart
      )
    ).toBe(1);

    // Reopened, the spill is the formula's own again, its rows known: nothing runs.
    await reload(page);
    // The anchor shows #BUSY! while it recalculates on opening, then its known rows.
    await until(
      page,
      "the reopened spill",
      async () => JSON.stringify(await block()) === movedLeft
    );
    expect(await block()).toEqual(spilled.map((pair) => ["", ...pair, "", ""]));
    expect(await runsStarted(page)).toBe(0);

    await deleteColumn(3); // D: the anchor
    const gone = JSON.stringify(spilled.map(() => ["", "", "", "", ""]));
    await until(page, "the spill gone", async () => JSON.stringify(await block()) === gone);
    expect(await block()).toEqual(spilled.map(() => ["", "", "", "", ""]));
  }, 90_000);
});
