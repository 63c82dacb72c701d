import type { Page } from "playwright-core";
import {
  openReadyPage,
  openStaticPlayground,
  shown,
  typeInCell,
  until,
  type OpenPlayground,
} from "./support/staticPlayground.js";

/**
 * A volatile function (RAND, NOW) inside a SPELL.RUN formula, typed from the keyboard in Chromium:
 * as in Excel, the run's result arriving completes the formula with the volatile values of the
 * calculation that made the call; it is not a new calculation that calls SPELL.RUN again with new
 * inputs (with RAND, each refused call's answer brought the next call: the page froze).
 */
type PageWindow = {
  __emulator: { stats: { runsCreated: number; bulkRunsCreated: number } };
};

/** `work`, or a failure naming `what` once `ms` have passed (a frozen page never answers). */
async function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the page did not answer ${what} in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs the page's emulator started since the page loaded (failing when the page is frozen). */
function runsStarted(page: Page): Promise<number> {
  return within(
    "the runs started",
    5_000,
    page.evaluate(() => {
      const { stats } = (window as unknown as PageWindow).__emulator;
      return stats.runsCreated + stats.bulkRunsCreated;
    })
  );
}

describe("SPELL.RUN formulas with a volatile function inside (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page | undefined;

  beforeAll(async () => {
    open = await openStaticPlayground();
  }, 300_000);
  afterAll(async () => {
    await open?.close();
  }, 30_000);
  beforeEach(async () => {
    page = await openReadyPage(open);
  }, 90_000);
  afterEach(async () => {
    // A frozen page may never close: the browser goes with afterAll.
    await within("close", 5_000, page?.close() ?? Promise.resolve()).catch(() => undefined);
  }, 30_000);

  it("should not freeze on RAND() inside the formula, and start no run beyond the add-in's rule", async () => {
    const formula = '=SPELL.RUN("sentiment", SPELL.INPUTS("text", "r " & RAND()), "label")';
    await within("the typed formula", 10_000, typeInCell(page as Page, "G8", formula));
    await until(page as Page, "the first run", async () => (await runsStarted(page as Page)) >= 1);
    await until(
      page as Page,
      "G8's result",
      async () => !/#BUSY!/.test(await within("G8", 5_000, shown(page as Page, "G8")))
    );
    await (page as Page).waitForTimeout(1_500);
    expect(await runsStarted(page as Page)).toBeLessThanOrEqual(3);
    expect(await within("G8", 5_000, shown(page as Page, "G8"))).not.toBe("");
    expect(open.errors).toEqual([]);
  }, 60_000);

  it("should start one run for NOW() inside the formula entered once", async () => {
    const formula = '=SPELL.RUN("sentiment", SPELL.INPUTS("text", "n " & NOW()), "label")';
    await typeInCell(page as Page, "G8", formula);
    await until(page as Page, "the run", async () => (await runsStarted(page as Page)) >= 1);
    await until(
      page as Page,
      "G8's result",
      async () => !/#BUSY!/.test(await shown(page as Page, "G8"))
    );
    // The result arrived: a second run would start within a few hundred milliseconds.
    await (page as Page).waitForTimeout(2_500);
    expect(await runsStarted(page as Page)).toBe(1);
    expect(open.errors).toEqual([]);
  }, 60_000);
});
