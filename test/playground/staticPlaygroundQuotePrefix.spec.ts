import type { Page } from "playwright-core";
import {
  clickCell,
  openStaticPlayground,
  shown,
  typeInCell,
  type OpenPlayground,
  until,
  openReadyPage,
} from "./support/staticPlayground.js";
import { modelCell } from "./support/gridPage.js";

/**
 * Excel's apostrophe (Microsoft, "Display or hide the apostrophe"): text typed after `'` is text,
 * whatever it looks like (`'=1+2`, `'12`); the cell shows it without the apostrophe, the formula
 * bar and Edit mode (F2) with it, so an edit keeps it text. A `'=SPELL.RUN(…)` never runs.
 */
describe("Text typed after an apostrophe in the static playground (Chromium)", () => {
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

  const bar = () => page.locator("#formula-content");
  const editorText = () =>
    page.evaluate(
      () => document.querySelector<HTMLTextAreaElement>(".jss_worksheet td.editor textarea")?.value
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

  it("should show the apostrophe in the bar and in F2, and keep the text text after an edit, an undo and a reload", async () => {
    await typeInCell(page, "H12", "'=1+2");
    await until(page, "H12 written", async () => (await shown(page, "H12")) === "=1+2");
    expect(await modelCell(page, "Reviews", "H12")).toEqual({ value: "=1+2", formula: null });
    await clickCell(page, "H12");
    expect(await bar().inputValue()).toBe("'=1+2");

    await page.keyboard.press("F2");
    expect(await editorText()).toBe("'=1+2");
    await page.keyboard.type("0");
    await page.keyboard.press("Enter");
    await until(page, "H12 edited", async () => (await shown(page, "H12")) === "=1+20");
    expect(await modelCell(page, "Reviews", "H12")).toEqual({ value: "=1+20", formula: null });

    await page.keyboard.press("Control+z");
    await until(page, "H12 undone", async () => (await shown(page, "H12")) === "=1+2");
    await clickCell(page, "H12");
    expect(await bar().inputValue()).toBe("'=1+2");

    await until(page, "the document saved", async () =>
      /^Saved/.test(await page.locator("#playground-saved").innerText())
    );
    await page.waitForTimeout(500);
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    await clickCell(page, "H12");
    expect(await bar().inputValue()).toBe("'=1+2");
    expect(await modelCell(page, "Reviews", "H12")).toEqual({ value: "=1+2", formula: null });
    expect(open.errors).toEqual([]);
  }, 120_000);

  it("should never run a '=SPELL.RUN(…) text edited in the formula bar", async () => {
    const formula = '=SPELL.RUN("sentiment", SPELL.INPUTS("text", A5), "label")';
    const before = await runsStarted();
    await typeInCell(page, "H11", `'${formula}`);
    await until(page, "H11 written", async () => (await shown(page, "H11")) === formula);
    await clickCell(page, "H11");
    expect(await bar().inputValue()).toBe(`'${formula}`);
    const box = await bar().boundingBox();
    if (!box) throw new Error("no formula bar");
    await page.mouse.click(box.x + box.width - 4, box.y + box.height / 2);
    await page.keyboard.press("End");
    await page.keyboard.type(" ");
    await page.keyboard.press("Enter");
    await until(
      page,
      "H11 edited",
      async () => (await modelCell(page, "Reviews", "H11")).value === `${formula} `
    );
    await page.waitForTimeout(1_000);
    expect(await modelCell(page, "Reviews", "H11")).toEqual({
      value: `${formula} `,
      formula: null,
    });
    expect(await runsStarted())
      .withContext("no run started")
      .toBe(before);
    expect(open.errors).toEqual([]);
  }, 60_000);
});
