import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { OFFICE_FRAME_ANCESTORS } from "../../addin-server/src/contentSecurityPolicy.js";
import { parseServerArguments } from "../../addin-server/src/parseServerArguments.js";

const env = {
  SPELL_BASE_URL: "https://api.spell.example",
  SPELL_POLL_BASE_URL: "https://poll.spell.example",
  SPELLRUN_ADDIN_PLAIN_HTTP: "1",
};

describe("parseServerArguments (the add-in server's flags and variables)", () => {
  const options = (argv: string[], extra: Record<string, string> = {}) => {
    const command = parseServerArguments(argv, { ...env, ...extra });
    if (command.help) throw new Error("help");
    return command.options;
  };

  it("should take frame-ancestors as https origins, with 'default' for Office's and Teams' list", () => {
    expect(options([]).frameAncestors).toBeUndefined();
    expect(
      options(["--frame-ancestors", "default, https://*.office365.us"]).frameAncestors
    ).toEqual([...OFFICE_FRAME_ANCESTORS, "https://*.office365.us"]);
    expect(
      options([], { SPELLRUN_ADDIN_FRAME_ANCESTORS: "https://intranet.example:8443" })
        .frameAncestors
    ).toEqual(["https://intranet.example:8443"]);
    for (const wrong of [
      "*",
      "https:",
      "http://intranet.example",
      "'none'",
      "https://a.example/x",
    ]) {
      expect(() => options(["--frame-ancestors", wrong]))
        .withContext(wrong)
        .toThrowError(/--frame-ancestors takes https origins/);
    }
  });

  it("should check the public host and take the receive limit", () => {
    expect(options(["--public-host", "excel-spells.example.com:8443"]).publicHost).toBe(
      "excel-spells.example.com:8443"
    );
    expect(() => options(["--public-host", "https://excel-spells.example.com"])).toThrowError(
      /publicHost must be a host name/
    );
    expect(options(["--receive-timeout-ms", "5000"]).receiveTimeoutMs).toBe(5000);
    expect(() => options(["--receive-timeout-ms", "soon"])).toThrowError(/whole number/);
  });

  it("should take the metrics token of the organisation mode from SPELLRUN_METRICS_TOKEN only", () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "spellrun-org-config-"));
    const file = path.join(folder, "organisation.json");
    writeFileSync(
      file,
      JSON.stringify({
        tenantId: "tenant",
        clientId: "client",
        spellKeyFile: "spell-key",
        adminGroup: "admins",
        database: "ledger",
      })
    );
    expect(options(["--organisation", file]).organisation?.metricsToken).toBeUndefined();
    expect(
      options(["--organisation", file], { SPELLRUN_METRICS_TOKEN: "t-1" }).organisation
        ?.metricsToken
    ).toBe("t-1");
  });
});
