import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

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
});
