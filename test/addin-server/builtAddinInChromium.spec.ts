import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { chromium, type Browser, type Page } from "playwright-core";
import { createAddinServer } from "../../addin-server/src/createAddinServer.js";
import { OFFICE_JS, fakeOfficeJs } from "./support/fakeOfficeJsBundle.js";
import { startFakeSpellService, type FakeSpellService } from "./support/fakeSpellService.js";
import { productionAddinBuild } from "./support/productionAddinBuild.js";
import { testCertificate } from "./support/testCertificate.js";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumFlags } = require("../../scripts/browserBuild.cjs") as {
  chromiumFlags: string[];
};

const KEY = "sk-chromium-addin-secret-42";

describe("the built add-in, served by addin-server, in Chromium (a Spell service without CORS)", () => {
  let service: FakeSpellService;
  let app: FastifyInstance;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let logs = "";
  let closedPortOrigin: string;
  const pageErrors: string[] = [];
  const timeoutMs = 240_000;

  beforeAll(async () => {
    const [addinDir, officeJs, tls] = await Promise.all([
      productionAddinBuild(),
      fakeOfficeJs(),
      testCertificate(),
    ]);
    service = await startFakeSpellService(KEY, tls);
    closedPortOrigin = `https://127.0.0.1:${await freePort()}`;
    app = await createAddinServer({
      addinDir,
      serviceBaseUrl: service.baseUrl,
      servicePollBaseUrl: service.pollBaseUrl,
      // The page may also call these directly (Settings › Directly), as a user might choose.
      connectSources: [service.httpsBaseUrl, closedPortOrigin],
      tls,
      logger: {
        level: "info",
        stream: new Writable({
          write(chunk: Buffer, _encoding, done) {
            logs += chunk.toString();
            done();
          },
        }),
      },
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    origin = `https://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: process.env.CHROME_BIN || "/usr/bin/chromium",
      // The spec's certificate is made up on the spot; nothing else is trusted or contacted.
      args: [...chromiumFlags, "--ignore-certificate-errors"],
    });
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    // Any address outside this computer is never contacted (the last route added wins, so
    // office.js below is answered).
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    // The page loads office.js from Microsoft's CDN; here that address answers with the stand-in.
    await context.route(OFFICE_JS, (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: officeJs })
    );
    // tsx compiles this spec keeping function names through a helper (__name) that functions
    // passed to page.evaluate bring along; the page gets the same no-op helper.
    await context.addInitScript("globalThis.__name = (target) => target;");
    page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      // Test connection's made-up id answers 404 on purpose; Chromium logs each such answer.
      if (message.type() === "error" && !/status of 404/.test(message.text()))
        pageErrors.push(message.text());
    });
    await page.goto(`${origin}/taskpane.html`);
    await page
      .waitForSelector("#tab-settings", { timeout: 60_000 })
      .catch(async (error: unknown) => {
        // Say what the page showed and what it complained about, not only that it timed out.
        const shown = await page.textContent("body").catch(() => "");
        throw new Error(`${String(error)}\npage: ${shown}\nerrors: ${pageErrors.join("\n")}`);
      });
  }, timeoutMs);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await service?.close();
  });

  async function testConnection(settings: {
    route: "addinHost" | "direct";
    key: string;
    baseUrl?: string;
    pollBaseUrl?: string;
  }): Promise<string> {
    await page.click("#tab-settings");
    await page.evaluate((values) => {
      const field = (id: string) => document.getElementById(id) as unknown as { value: string };
      field("service-route").value = values.route;
      field("api-key").value = values.key;
      if (values.baseUrl) field("base-url").value = values.baseUrl;
      if (values.pollBaseUrl) field("poll-base-url").value = values.pollBaseUrl;
      document.getElementById("settings-status")!.textContent = "";
    }, settings);
    await page.click("#test-connection");
    await page.waitForFunction(
      () => {
        const text = document.getElementById("settings-status")?.textContent ?? "";
        return text !== "" && !text.startsWith("Testing");
      },
      null,
      { timeout: 60_000 }
    );
    return (await page.textContent("#settings-status")) ?? "";
  }

  it(
    "should run SPELL.RUN and SPELL.BULK through the add-in's host, the key only in headers, never in its logs",
    async () => {
      pageErrors.length = 0;
      const requestsBefore = service.requests.length;
      // A build that names no service goes through its host by default: only the key to enter.
      expect(await testConnection({ route: "addinHost", key: KEY })).toContain("Connected");
      await page.click("#save-settings");
      await page.waitForFunction(
        () => document.getElementById("settings-status")?.textContent === "Settings saved."
      );

      const run = await page.evaluate(async () => {
        const functions = (
          window as unknown as {
            __customFunctions: Record<string, (...args: unknown[]) => Promise<unknown>>;
          }
        ).__customFunctions;
        const invocation = { isInValuePreview: false, functionName: "SPELL.RUN" };
        return functions.RUN(
          "summarize",
          [['{"text":"Spells are stored. They run."}']],
          null,
          invocation
        );
      });
      expect(run).toEqual([["Spells are stored."]]);

      const bulk = await page.evaluate(
        () =>
          new Promise<unknown>((resolve, reject) => {
            const functions = (
              window as unknown as {
                __customFunctions: Record<string, (...args: unknown[]) => unknown>;
              }
            ).__customFunctions;
            const timer = setTimeout(() => reject(new Error("SPELL.BULK did not finish")), 60_000);
            functions.BULK(
              "summarize",
              [["text"], ["One thing. Two."], ["Three things. Four."], ["Five. Six."]],
              [["summary"]],
              {
                isInValuePreview: false,
                functionName: "SPELL.BULK",
                setResult: (value: unknown) => {
                  const rows = value as unknown[][];
                  if (
                    Array.isArray(rows) &&
                    rows.slice(1).every((row) => typeof row[0] === "string")
                  ) {
                    clearTimeout(timer);
                    resolve(rows);
                  }
                },
              }
            );
          })
      );
      expect(bulk).toEqual([["summary"], ["One thing."], ["Three things."], ["Five."]]);

      const seen = service.requests.slice(requestsBefore);
      const endpoints = seen.map((request) => `${request.method} ${request.url.split("?")[0]}`);
      expect(endpoints).toContain("POST /spells/bulkStart");
      expect(endpoints).toContain("POST /spells/getBulkRuns");
      for (const request of seen) {
        // Same-origin calls, forwarded: the service sees the key header and no page origin.
        expect(request.headers.origin).toBeUndefined();
        expect(request.headers.cookie).toBeUndefined();
        expect(request.headers.authorization ?? request.headers["x-api-key"]).toContain(KEY);
      }
      expect(logs).toContain("/spell-api/spells/bulkStart");
      expect(logs).not.toContain(KEY);
      // No Content-Security-Policy violation, no script error in the page.
      expect(pageErrors).toEqual([]);
    },
    timeoutMs
  );

  it(
    "should tell apart, in Test connection: a refused key, a CORS refusal, no answer, an address the page's policy blocks, and an address that is not the service",
    async () => {
      const wrongKey = await testConnection({ route: "addinHost", key: "sk-not-the-key" });
      expect(wrongKey).toContain("refused the API key (HTTP 401)");

      // Directly to a service that sends no CORS headers: the browser withholds its answers.
      const cors = await testConnection({
        route: "direct",
        key: KEY,
        baseUrl: service.httpsBaseUrl,
        pollBaseUrl: service.httpsBaseUrl,
      });
      expect(cors).toContain("refused to hand its answer to the add-in");
      expect(cors).toContain("Through the add-in's host");

      const closedPort = closedPortOrigin;
      const silent = await testConnection({
        route: "direct",
        key: KEY,
        baseUrl: closedPort,
        pollBaseUrl: closedPort,
      });
      expect(silent).toContain(`does not answer at the base URL (${closedPort})`);

      // Directly to an address the server's policy does not list (--connect-src): the page may
      // not call it at all, and Test connection says so instead of "does not answer".
      const unlisted = `https://127.0.0.1:${await freePort()}`;
      const blocked = await testConnection({
        route: "direct",
        key: KEY,
        baseUrl: unlisted,
        pollBaseUrl: unlisted,
      });
      expect(blocked).toContain(`may not call ${unlisted}`);
      expect(blocked).toContain("security policy");
      expect(blocked).not.toContain("does not answer");

      // The add-in's own address entered as the service's: it answers, but not as the service.
      const wrongAddress = await testConnection({
        route: "direct",
        key: KEY,
        baseUrl: origin,
        pollBaseUrl: origin,
      });
      expect(wrongAddress).toContain("is not the Spell Run API");
      expect(logs).not.toContain(KEY);
      expect(logs).not.toContain("sk-not-the-key");
    },
    timeoutMs
  );
});

/** A port nothing listens on (just freed). */
async function freePort(): Promise<number> {
  const net = await import("node:net");
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
