import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readOrganisationConfig } from "../../addin-server/src/organisation/readOrganisationConfig";

describe("readOrganisationConfig", () => {
  const write = (extra: Record<string, unknown>): string => {
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
        ...extra,
      })
    );
    return file;
  };

  it("should accept a development token address on a loopback host", () => {
    for (const url of [
      "http://127.0.0.1:3003/t/oauth2/v2.0/token",
      "http://localhost:3003/t/oauth2/v2.0/token",
      "http://[::1]:3003/t/oauth2/v2.0/token",
    ]) {
      expect(readOrganisationConfig(write({ devTokenUrl: url })).devTokenUrl).toBe(url);
    }
  });

  it("should refuse a development token address that is not on this machine", () => {
    for (const url of [
      "https://login.example.com/t/oauth2/v2.0/token",
      "http://10.0.0.5:3003/token",
      "http://127.0.0.1.example.com/token",
      "not a url",
    ]) {
      expect(() => readOrganisationConfig(write({ devTokenUrl: url }))).toThrowError(
        /"devTokenUrl" must be the local issuer on a loopback address/
      );
    }
  });

  it("should leave the development sign-in off when devTokenUrl is not given", () => {
    expect(readOrganisationConfig(write({})).devTokenUrl).toBeUndefined();
  });
});
