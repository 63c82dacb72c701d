import { chromium, type Browser, type Page } from "playwright-core";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import {
  createLocalIssuer,
  type LocalIssuer,
} from "../../addin-server/src/localIssuer/createLocalIssuer.js";
import type { SqlDatabase } from "../../addin-server/src/organisation/ledger/SqlDatabase.js";
import { OFFICE_JS, fakeOfficeJs } from "./support/fakeOfficeJsBundle.js";
import {
  ORGANISATION_KEY,
  emptyLedger,
  sharedPglite,
  startOrganisationGateway,
  type OrganisationGateway,
} from "./support/organisationGateway.js";
import { productionAddinBuild } from "./support/productionAddinBuild.js";
import { testCertificate } from "./support/testCertificate.js";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumFlags } = require("../../scripts/browserBuild.cjs") as {
  chromiumFlags: string[];
};

/** The user's budget: one SPELL.RUN and a pane bulk of two rows use it up. */
const RUNS_PER_DAY = 3;

/** What the page's stand-in office.js exposes (test/addin-server/support/fakeOfficeJs.ts). */
interface FakeOfficePage {
  __customFunctions: Record<string, (...args: unknown[]) => unknown>;
  __workbook: {
    select(address: string): void;
    setValues(sheet: string, topLeft: string, rows: unknown[][]): void;
    values(sheet: string, address: string): unknown[][];
  };
}

/**
 * The walk an organisation's user takes, in Chromium: the PRODUCTION build served by the add-in
 * server in organisation mode, in front of the emulator (which knows only the organisation's key);
 * sign-in through the local issuer; SPELL.RUN and a pane bulk charged to the user on the ledger;
 * past the budget, a refused run shown in the cell and in the pane.
 */
describe("the built add-in in organisation mode, in Chromium (sign-in, budgets, ledger)", () => {
  let emulator: RunningEmulator;
  let issuer: LocalIssuer;
  let database: SqlDatabase;
  let gateway: OrganisationGateway;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const timeoutMs = 120_000;

  beforeAll(async () => {
    const [addinDir, officeJs, tls] = await Promise.all([
      productionAddinBuild(),
      fakeOfficeJs(),
      testCertificate(),
    ]);
    [emulator, issuer, database] = await Promise.all([
      startEmulator({ apiKey: ORGANISATION_KEY, timeScale: 0.02 }),
      createLocalIssuer({
        tenantId: "tenant-walk",
        audience: "spellrun-addin",
        users: { "alice@example.test": ["finance"] },
      }),
      sharedPglite(),
    ]);
    await emptyLedger(database);
    gateway = await startOrganisationGateway({
      issuer,
      upstreamUrl: emulator.baseUrl,
      upstreamPollUrl: emulator.pollBaseUrl,
      database,
      devSignIn: true,
      tls,
      addinDir,
      budgets: { users: { default: { perDay: RUNS_PER_DAY } } },
    });
    browser = await chromium.launch({
      executablePath: process.env.CHROME_BIN || "/usr/bin/chromium",
      args: [...chromiumFlags, "--ignore-certificate-errors"],
    });
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    await context.route(OFFICE_JS, (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: officeJs })
    );
    await context.addInitScript("globalThis.__name = (target) => target;");
    page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(`${gateway.url}/taskpane.html`);
    await page
      .waitForSelector("#organisation-sign-in", { state: "attached", timeout: 60_000 })
      .catch(async (error) => {
        const shown = await page.textContent("body").catch(() => "");
        throw new Error(`${String(error)}\npage: ${shown}\nerrors: ${pageErrors.join("\n")}`);
      });
  }, timeoutMs);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await Promise.all([issuer?.close(), emulator?.close()]);
  });

  const ledgerRows = () =>
    database.query<{
      user_name: string;
      endpoint: string;
      spell_id: string;
      runs: number;
      status: number | null;
      refunded: boolean;
    }>(
      "SELECT user_name, endpoint, spell_id, runs, status, refunded FROM usage_ledger ORDER BY id"
    );

  /** SPELL.RUN as Excel calls it: its value, or the error the cell shows. */
  const spellRun = (text: string) =>
    page.evaluate(async (input) => {
      const functions = (window as unknown as FakeOfficePage).__customFunctions;
      try {
        return await functions.RUN!("summarize", [[JSON.stringify({ text: input })]], null, {
          isInValuePreview: false,
          functionName: "SPELL.RUN",
        });
      } catch (error) {
        const { code, message } = error as { code?: string; message?: string };
        return { code, message };
      }
    }, text);

  /** The pane's bulk over the selection: Use selection, Run, until the progress line settles. */
  async function paneBulk(): Promise<string> {
    await page.click("#tab-run");
    await page.evaluate(() => {
      (document.getElementById("spell-id") as unknown as { value: string }).value = "summarize";
    });
    await page.click("#use-selection");
    await page.waitForFunction(
      () => /will start/.test(document.getElementById("plan-summary")?.textContent ?? ""),
      null,
      { timeout: 20_000 }
    );
    await page.click("#run");
    await page.waitForFunction(
      () => {
        const text = document.getElementById("progress-text")?.textContent ?? "";
        return /^(Finished|Stopped|Not started)|limit|refused|could not/i.test(text);
      },
      null,
      { timeout: 40_000 }
    );
    return (await page.textContent("#progress-text")) ?? "";
  }

  it(
    "should sign in, charge SPELL.RUN and a pane bulk to the user, and show a run past the budget refused in the cell and the pane",
    async () => {
      // Settings: no key field, the organisation holds the key; sign in through the local issuer.
      await page.click("#tab-settings");
      expect(await page.isVisible("#api-key")).toBeFalse();
      await page.evaluate(() => {
        (document.getElementById("organisation-dev-user") as unknown as { value: string }).value =
          "alice@example.test";
      });
      await page.click("#organisation-sign-in");
      await page.waitForFunction(
        () =>
          document.getElementById("organisation-user")?.textContent ===
          "Signed in as alice@example.test."
      );

      // SPELL.RUN (sent as a bulk of one, the Settings' default), charged 1.
      expect(await spellRun("Budgets hold. Always.")).toEqual([["Budgets hold.", 3]]);

      // The pane's bulk over Reviews!A1:A3 (a header and two rows), charged 2.
      const finished = await paneBulk();
      expect(finished).toMatch(/^Finished: 2 \/ 2 done/);
      expect(
        await page.evaluate(() =>
          (window as unknown as FakeOfficePage).__workbook.values("Reviews", "B2:C3")
        )
      ).toEqual([
        ["success", "Spells are stored."],
        ["success", "Cells run spells."],
      ]);

      // The budget is used up: the next SPELL.RUN is refused before the service sees it.
      const started = () => emulator.stats.runsCreated + emulator.stats.bulkRunsCreated;
      const startsBefore = started();
      const refusedCell = (await spellRun("One more. Please.")) as {
        code?: string;
        message?: string;
      };
      expect(refusedCell.code).toBe("#N/A");
      expect(refusedCell.message).toContain(`daily limit of ${RUNS_PER_DAY} runs is reached`);
      expect(refusedCell.message).toContain("resets at");

      // And a pane bulk over a new row is refused in the pane.
      await page.evaluate(() => {
        const { __workbook } = window as unknown as FakeOfficePage;
        __workbook.setValues("Reviews", "A4", [["A new row. Past the budget."]]);
        __workbook.select("Reviews!A1:A4");
      });
      const refusedPane = await paneBulk();
      expect(refusedPane).toContain(`daily limit of ${RUNS_PER_DAY} runs is reached`);
      expect(
        await page.evaluate(() =>
          (window as unknown as FakeOfficePage).__workbook.values("Reviews", "B4:C4")
        )
      ).toEqual([["", ""]]);
      expect(started()).toBe(startsBefore);

      // The ledger: the charged calls, each the user's with the service's answer; nothing refused.
      const rows = await ledgerRows();
      expect(rows.map((row) => [row.user_name, row.endpoint, row.runs, row.status])).toEqual([
        ["alice@example.test", "bulkStart", 1, 200],
        ["alice@example.test", "bulkStart", 2, 200],
      ]);
      expect(rows.every((row) => !row.refunded)).toBeTrue();
      expect(gateway.logs()).not.toContain(ORGANISATION_KEY);
      expect(pageErrors).toEqual([]);
    },
    timeoutMs
  );
});
