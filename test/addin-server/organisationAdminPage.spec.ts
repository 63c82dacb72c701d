import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import {
  createLocalIssuer,
  type LocalIssuer,
} from "../../addin-server/src/localIssuer/createLocalIssuer.js";
import { ledgerCsv } from "../../addin-server/src/organisation/ledger/ledgerCsv.js";
import type { SqlDatabase } from "../../addin-server/src/organisation/ledger/SqlDatabase.js";
import { startRecordingUpstream, type RecordingUpstream } from "./support/recordingUpstream.js";
import {
  ADMIN_GROUP,
  emptyLedger,
  sharedPglite,
  startOrganisationGateway,
  startThrough,
  type OrganisationGateway,
} from "./support/organisationGateway.js";
import { testCertificate } from "./support/testCertificate.js";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumFlags } = require("../../scripts/browserBuild.cjs") as { chromiumFlags: string[] };

const HOSTILE_NAME = "<img src=x onerror=\"document.title='owned'\">=cmd";

describe("addin-server organisation mode: the admin page in Chromium", () => {
  let issuer: LocalIssuer;
  let upstream: RecordingUpstream;
  let database: SqlDatabase;
  let gateway: OrganisationGateway;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    issuer = await createLocalIssuer({
      tenantId: "tenant-admin",
      audience: "spellrun-addin",
      users: { "admin@example.test": [ADMIN_GROUP], "alice@example.test": ["finance"] },
    });
    upstream = await startRecordingUpstream(() => ({ status: 200, body: { runId: "r-1" } }));
    database = await sharedPglite();
    gateway = await startOrganisationGateway({
      issuer,
      upstreamUrl: upstream.url,
      database,
      devSignIn: true,
      tls: await testCertificate(),
      budgets: { users: { default: { perDay: 10 } } },
    });
    browser = await chromium.launch({
      executablePath: process.env.CHROME_BIN || "/usr/bin/chromium",
      args: [...chromiumFlags, "--ignore-certificate-errors"],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await Promise.all([issuer?.close(), upstream?.close()]);
  });

  beforeEach(async () => {
    await emptyLedger(database);
    const context = await browser.newContext({ ignoreHTTPSErrors: true, acceptDownloads: true });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    page = await context.newPage();
  });

  afterEach(async () => {
    await page?.context().close();
  });

  /** Signs in as Entra would have it: the authorization code flow with PKCE, the issuer's page. */
  async function signInAs(user: string): Promise<void> {
    await page.goto(`${gateway.url}/admin`);
    await page.locator("#sign-in-button").click();
    await page.locator("#login_hint").fill(user);
    await page.locator("#sign-in").click();
    await page.waitForURL(`${gateway.url}/admin`);
  }

  it("should show usage per user, group and spell as text, toggle the kill switch, and export the ledger as CSV", async () => {
    const alice = await issuer.sign({ user: "alice@example.test" });
    for (let run = 0; run < 3; run += 1) {
      await startThrough(gateway, alice, { spellId: "summarize", wait: false, inputs: {} });
    }
    // A name with markup, as a directory could hold: shown as text, never run.
    await database.query(
      `INSERT INTO usage_ledger (day, month, user_id, user_name, groups, endpoint, spell_id, runs, status)
       VALUES (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD'), to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM'), 'u-x', $1, '{}', 'start', 'classify', 2, 200)`,
      [HOSTILE_NAME]
    );

    await signInAs("admin@example.test");
    await page.locator("#report").waitFor({ state: "visible" });
    const rows = (id: string) =>
      page
        .locator(`#${id} tbody tr`)
        .evaluateAll((trs) =>
          trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent))
        );
    expect(await rows("by-user")).toEqual([
      ["alice@example.test", "3", "3"],
      [HOSTILE_NAME, "2", "1"],
    ]);
    expect(await rows("by-group")).toEqual([["finance", "3"]]);
    expect(await rows("by-spell")).toEqual([
      ["summarize", "3"],
      ["classify", "2"],
    ]);
    expect(await rows("budgets")).toContain(["user", "alice@example.test", "day", "10", "3", "7"]);
    expect(await page.locator("#report img").count()).toBe(0);
    expect(await page.title()).not.toBe("owned");

    const download = page.waitForEvent("download");
    await page.locator("#export-csv").click();
    const file = await (await download).path();
    const { readFileSync } = await import("node:fs");
    const today = new Date().toISOString().slice(0, 10);
    const expected = await ledgerCsv(database, `${today.slice(0, 7)}-01`, today);
    expect(readFileSync(file, "utf8")).toBe(expected);
    expect(expected.split("\r\n").length).toBe(6); // header, four rows, the final line break
    expect(path.basename((await download).suggestedFilename())).toMatch(/^spellrun-usage-.*\.csv$/);

    await page.locator("#toggle-pause").click();
    await page.locator("#paused-state.paused").waitFor();
    expect((await startThrough(gateway, alice)).body.code).toBe("organisation_paused");
    await page.locator("#toggle-pause").click();
    await page.locator("#paused-state:not(.paused)").waitFor();
    expect((await startThrough(gateway, alice)).status).toBe(200);
  }, 30_000);

  it("should refuse a signed-in user outside the admin group, showing who is signed in and Sign out", async () => {
    await signInAs("alice@example.test");
    await page.locator("#error").filter({ hasText: "not in the admin group" }).waitFor();
    expect(await page.locator("#report").isVisible()).toBe(false);
    // Signed in, though refused: the page says as whom, and offers Sign out, not Sign in.
    expect(await page.locator("#signed-in-as").textContent()).toBe("alice@example.test");
    expect(await page.locator("#sign-out-button").isVisible()).toBe(true);
    expect(await page.locator("#sign-in-button").isVisible()).toBe(false);
  }, 20_000);

  it("should show who is signed in and Sign out instead of Sign in, and sign out", async () => {
    await signInAs("admin@example.test");
    await page.locator("#report").waitFor({ state: "visible" });
    expect(await page.locator("#signed-in").isVisible()).toBe(true);
    expect(await page.locator("#signed-in-as").textContent()).toBe("admin@example.test");
    expect(await page.locator("#sign-in-button").isVisible()).toBe(false);

    await page.locator("#sign-out-button").click();
    await page.locator("#sign-in-button").waitFor({ state: "visible" });
    expect(await page.locator("#signed-in").isVisible()).toBe(false);
    expect(await page.locator("#report").isVisible()).toBe(false);
    expect(await page.locator("#by-user tbody tr").count()).toBe(0);
    expect(await page.locator("#sign-in-message").textContent()).toContain("Signed out");
    // The token is forgotten: the next call of the page would need a new sign-in.
    expect(await page.locator("#refresh").isVisible()).toBe(false);
  }, 20_000);
});
