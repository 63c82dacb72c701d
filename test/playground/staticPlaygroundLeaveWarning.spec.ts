import type { Page } from "playwright-core";
import {
  clickCell,
  closeReadyPlayground,
  openReadyPage,
  openReadyPlayground,
  shown,
  typeInCell,
  type OpenPlayground,
  until,
} from "./support/staticPlayground.js";

/**
 * The page asks before it is left ("Leave site?") exactly when something would be lost: while
 * runs it waits for are in flight. Not when everything is saved and nothing runs, nor for a run
 * nobody waits for any more (its cell was emptied while it ran: the service goes on with it, but
 * its result has no cell to go to). Real keyboard and a real reload, in Chromium.
 */

const SUMMARY = (row: number) =>
  `=SPELL.RUN("summarize", SPELL.INPUTS("text", A${row}), "summary")`;

type PageWindow = { __emulator: { store: { inFlight(): number } } };

function runsInFlight(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as PageWindow).__emulator.store.inFlight());
}

/** Reloads as a person does, answering "Leave" should the page ask; tells whether it asked. */
async function reloadAsked(page: Page): Promise<boolean> {
  let asked = false;
  const answer = (dialog: { type(): string; accept(): Promise<void> }) => {
    if (dialog.type() === "beforeunload") asked = true;
    void dialog.accept();
  };
  page.on("dialog", answer);
  try {
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
  } finally {
    page.off("dialog", answer);
  }
  return asked;
}

describe("The static playground's question before leaving (Chromium)", () => {
  let open: OpenPlayground | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  it("should not ask when everything is saved and no run is awaited (a run whose cell was emptied included), and ask while a run is in flight", async () => {
    if (!page || !open) throw new Error("no page");
    const shownPage = page;
    await page.locator("#playground-pace").selectOption("minute");
    // A run started, then its cell emptied while it runs: nobody waits for it any more.
    await typeInCell(page, "C2", SUMMARY(2));
    await until(page, "the run started", async () => (await runsInFlight(shownPage)) > 0);
    expect(await shown(page, "C2")).toBe("#BUSY!");
    await clickCell(page, "C2");
    await page.keyboard.press("Delete");
    await until(page, "C2 emptied", async () => (await shown(shownPage, "C2")) === "");
    await until(page, "the document saved", async () =>
      /^Saved/.test(await shownPage.locator("#playground-saved").innerText())
    );
    expect(await runsInFlight(page)).toBe(1); // the service still runs it
    expect(await reloadAsked(page)).toBeFalse();
    // The emulator found its run again after the reload; still nobody waits for it (a click
    // first: Chromium asks only on a page a person has used).
    expect(await runsInFlight(page)).toBe(1);
    await clickCell(page, "F5");
    expect(await reloadAsked(page)).toBeFalse();

    // A run the sheet waits for: the page asks.
    await typeInCell(page, "C3", SUMMARY(3));
    await until(page, "C3 running", async () => (await shown(shownPage, "C3")) === "#BUSY!");
    await until(page, "its run started", async () => (await runsInFlight(shownPage)) > 1);
    expect(await reloadAsked(page)).toBeTrue();

    // A bulk run of the task pane going: the page asks too.
    await clickCell(page, "A1");
    await page.keyboard.down("Shift");
    await clickCell(page, "A6");
    await page.keyboard.up("Shift");
    await page.locator("#spell-id").click();
    await page.keyboard.type("sentiment");
    await page.keyboard.press("Enter");
    await page.locator("#use-selection").click();
    await until(page, "the plan", async () =>
      /will start/.test(await shownPage.locator("#plan-summary").innerText())
    );
    await page.locator("#run").click();
    await until(page, "the pane's run going", () => shownPage.locator("#cancel").isVisible());
    expect(await reloadAsked(page)).toBeTrue();
    expect(open.errors).toEqual([]);
  }, 90_000);

  // The spending guard's question: the cells waiting for its OK started nothing, and the guard
  // asks again after a reload, so leaving loses nothing.
  it("should not ask while cells only wait for the spending guard's OK", async () => {
    if (!open) throw new Error("no page");
    const fresh = await openReadyPage(open);
    try {
      await fresh.evaluate(() => {
        const stored = JSON.parse(localStorage.getItem("spellrun.settings") ?? "{}") as object;
        localStorage.setItem(
          "spellrun.settings",
          JSON.stringify({ ...stored, runsBeforeAsking: 2 })
        );
      });
      await fresh.reload();
      await fresh.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
      for (const row of [2, 3, 4, 5]) await typeInCell(fresh, `C${row}`, SUMMARY(row));
      await fresh.locator("#allow-these").waitFor({ state: "visible", timeout: 20_000 });
      const cells = fresh.locator(".jss_worksheet:visible td[data-x='2']");
      await until(fresh, "the allowed runs' results, the others waiting", async () => {
        const waiting = await cells.evaluateAll(
          (all) =>
            all.filter((cell) => /^Waiting for your OK/.test(cell.getAttribute("title") ?? ""))
              .length
        );
        const running = await cells.evaluateAll(
          (all) =>
            all.filter(
              (cell) =>
                cell.textContent === "#BUSY!" &&
                !(cell.getAttribute("title") ?? "").startsWith("Waiting")
            ).length
        );
        return waiting > 0 && running === 0;
      });
      await until(fresh, "the document saved", async () =>
        /^Saved/.test(await fresh.locator("#playground-saved").innerText())
      );
      expect(await reloadAsked(fresh)).toBeFalse();
    } finally {
      await fresh.close();
    }
  }, 90_000);
});
