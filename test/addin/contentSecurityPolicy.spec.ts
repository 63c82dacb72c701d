import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createAddinServer } from "../../addin-server/src/createAddinServer.js";
import { httpsRequest } from "../addin-server/support/httpsRequest.js";
import { testCertificate } from "../addin-server/support/testCertificate.js";

const require = createRequire(import.meta.url);
const { contentSecurityPolicy } = require("../../scripts/contentSecurityPolicy.cjs") as {
  contentSecurityPolicy(options: { dev: boolean; serviceUrls: (string | undefined)[] }): string;
};

/** The policy as a map of directive → sources. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(";").map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    })
  );
}

describe("the add-in page's Content-Security-Policy", () => {
  // Making the TLS key (a random prime search) took 0.4 to 1.2 s with the load average at 6,
  // and has a long tail: made once here with room, not inside a spec's 5 s default limit.
  beforeAll(async () => {
    await testCertificate();
  }, 60_000);

  it("should allow scripts from the add-in and Office's CDN only", () => {
    const policy = directives(contentSecurityPolicy({ dev: false, serviceUrls: [] }));
    expect(policy["script-src"]).toEqual(["'self'", "https://appsforoffice.microsoft.com"]);
    expect(policy["default-src"]).toEqual(["'self'"]);
    expect(policy["object-src"]).toEqual(["'none'"]);
    expect(policy["base-uri"]).toEqual(["'none'"]);
  });

  it("should allow connections to the configured service hosts only", () => {
    const policy = directives(
      contentSecurityPolicy({
        dev: false,
        serviceUrls: ["https://api.example.com/v1", "https://poll.example.com/", undefined, ""],
      })
    );
    expect(policy["connect-src"]).toEqual([
      "'self'",
      "https://appsforoffice.microsoft.com",
      "https://api.example.com",
      "https://poll.example.com",
    ]);
  });

  it("should allow what Settings accepts when the build named no service", () => {
    const production = directives(contentSecurityPolicy({ dev: false, serviceUrls: [] }));
    expect(production["connect-src"]).toEqual([
      "'self'",
      "https://appsforoffice.microsoft.com",
      "https:",
    ]);
    const development = directives(contentSecurityPolicy({ dev: true, serviceUrls: [] }));
    expect(development["connect-src"]).toEqual([
      "'self'",
      "https://appsforoffice.microsoft.com",
      "https:",
      "http://localhost:*",
      "http://127.0.0.1:*",
      "http://[::1]:*",
      "wss://localhost:*",
    ]);
  });

  it("should be written into the page's head, before Office.js", () => {
    const page = readFileSync(path.join("taskpane", "taskpane.html"), "utf8");
    const meta = page.indexOf('http-equiv="Content-Security-Policy"');
    expect(meta).toBeGreaterThan(0);
    expect(meta).toBeLessThan(page.indexOf("<script"));
    expect(page).toContain("<%= contentSecurityPolicy %>");
  });

  it("should keep a development page's calls to this computer on http, and upgrade a production page's", () => {
    const production = directives(contentSecurityPolicy({ dev: false, serviceUrls: [] }));
    const development = directives(contentSecurityPolicy({ dev: true, serviceUrls: [] }));
    expect(production["upgrade-insecure-requests"]).toEqual([]);
    expect(development["upgrade-insecure-requests"]).toBeUndefined();
    expect(production["script-src-attr"]).toEqual(["'none'"]);
    expect(development["script-src-attr"]).toEqual(["'none'"]);
  });

  it("should be the policy addin-server sends as its header, which adds only frame-ancestors", async () => {
    const addinDir = mkdtempSync(path.join(os.tmpdir(), "spellrun-csp-"));
    writeFileSync(path.join(addinDir, "taskpane.html"), "<!doctype html><title>Spell Run</title>");
    const server = await createAddinServer({
      addinDir,
      serviceBaseUrl: "https://internal-api.corp.example/v1",
      servicePollBaseUrl: "https://internal-poll.corp.example/",
      // A build that calls the service directly is served with its addresses allowed
      // (--connect-src); the forwarded (internal) hosts are never named in the header.
      connectSources: ["https://api.example.com/v1", "https://poll.example.com/"],
      tls: await testCertificate(),
      logger: false,
    });
    try {
      await server.listen({ host: "127.0.0.1", port: 0 });
      const port = (server.server.address() as AddressInfo).port;
      const page = await httpsRequest(`https://127.0.0.1:${port}/taskpane.html`);
      const { "frame-ancestors": frameAncestors, ...header } = directives(
        String(page.headers["content-security-policy"])
      );
      const meta = directives(
        contentSecurityPolicy({
          dev: false,
          serviceUrls: ["https://api.example.com/v1", "https://poll.example.com/"],
        })
      );
      // The same directives with the same sources, in whatever order each writes them.
      expect(Object.keys(header).sort()).toEqual(Object.keys(meta).sort());
      for (const [name, sources] of Object.entries(meta)) {
        expect(header[name]).withContext(name).toEqual(sources);
      }
      expect(frameAncestors).toContain("https://*.officeapps.live.com");
      expect(meta["frame-ancestors"]).toBeUndefined();
      expect(String(page.headers["content-security-policy"])).not.toContain("corp.example");
    } finally {
      await server.close();
    }
  });
});
