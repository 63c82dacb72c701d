import type { Page } from "playwright-core";
import {
  openReadyPage,
  openStaticPlayground,
  shown,
  typeInCell,
  type OpenPlayground,
} from "./support/staticPlayground.js";

/**
 * What is typed is kept however soon the page is reloaded after it (Excel's AutoSave keeps a
 * committed cell): the page saves changes 150 ms after they happen, and an IndexedDB write started
 * as the page unloads may never finish, so `pagehide` journals them synchronously. With the
 * keyboard, in Chromium.
 */
describe("The static playground reloaded right after an edit (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await page?.close();
    await open?.close();
  });

  it("should keep a cell committed with Enter and the page reloaded at once, then again after a second edit", async () => {
    page = await openReadyPage(open);
    page.on("dialog", (dialog) => void dialog.accept());

    await typeInCell(page, "M1", "typed then reloaded");
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    expect(await shown(page, "M1")).toBe("typed then reloaded");

    // The journal taken at the first reload is not read over a later save: a second edit, saved
    // normally this time, then a reload, shows the second.
    await typeInCell(page, "M1", "second");
    await page.waitForTimeout(600);
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    expect(await shown(page, "M1")).toBe("second");

    // And a quick reload after that one as well.
    await typeInCell(page, "M2", "third");
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    expect(await shown(page, "M1")).toBe("second");
    expect(await shown(page, "M2")).toBe("third");
    expect(open.errors).toEqual([]);
  }, 120_000);
});
