import type { Page } from "playwright-core";
import {
  newPlaygroundPage,
  openStaticPlayground,
  shown,
  typeInCell,
  until,
  type OpenPlayground,
} from "./support/staticPlayground.js";

/**
 * The trial's data entry in Chromium: numbers typed as 50%, 1,234, $12.50 are numbers shown as
 * typed, arithmetic converts numeric text, and H1# reads a spill range.
 */
describe("Numeric text and spill references in the page (Chromium)", () => {
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
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  }, 90_000);
  afterEach(async () => {
    await page?.close();
  }, 30_000);

  it("should store typed 50%, 1,234 and $12.50 as numbers shown as typed, and compute with them", async () => {
    await typeInCell(page, "K41", "50%");
    await typeInCell(page, "L41", "1,234");
    await typeInCell(page, "M41", "$12.50");
    await typeInCell(page, "N41", "=K41*2+L41+M41");
    await typeInCell(page, "O41", '="50%"*2');
    await until(page, "N41's sum", async () => (await shown(page, "N41")) === "1247.5");
    expect(await shown(page, "K41")).toBe("50%");
    expect(await shown(page, "L41")).toBe("1,234");
    expect(await shown(page, "M41")).toBe("$12.50");
    expect(await shown(page, "O41")).toBe("1");
    await typeInCell(page, "K43", "=SEQUENCE(4)");
    await typeInCell(page, "L43", "=SUM(K43#)");
    await until(page, "L43's sum", async () => (await shown(page, "L43")) === "10");
    expect(open.errors).toEqual([]);
  }, 60_000);
});
