import {
  parseServiceUrl,
  SpellClient,
  SpellError,
  type ServiceUrlProblem,
} from "../../src/index.js";
import { resolveConnection } from "../../cli/commands/resolveConnection.js";
import { checkServiceAddress } from "../../addin/settings/checkServiceAddress.js";

describe("parseServiceUrl", () => {
  it("should normalise an address so that the API's paths can be appended", () => {
    expect(parseServiceUrl(" https://API.example.com/v1// ")).toEqual({
      ok: true,
      url: "https://api.example.com/v1",
      hostname: "api.example.com",
      protocol: "https:",
    });
    expect(parseServiceUrl(new URL("http://127.0.0.1:3001/"))).toEqual(
      jasmine.objectContaining({ ok: true, url: "http://127.0.0.1:3001" })
    );
  });

  it("should say what is wrong with an address that cannot be used", () => {
    const cases: Array<[unknown, ServiceUrlProblem]> = [
      ["host/api", "notAbsolute"],
      [undefined, "notAbsolute"],
      [42, "notAbsolute"],
      ["ftp://host", "notHttp"],
      ["https://user:secret@host/api", "hasCredentials"],
      ["https://host/api?tenant=1", "hasQueryOrFragment"],
      ["https://host/api#top", "hasQueryOrFragment"],
      // An empty query would still end up before the path: /api?/spells/start
      ["https://host/api?", "hasQueryOrFragment"],
      ["https://host/api#", "hasQueryOrFragment"],
    ];
    for (const [value, problem] of cases) {
      expect(parseServiceUrl(value))
        .withContext(String(value))
        .toEqual({ ok: false, problem, says: jasmine.any(String) });
    }
  });

  it("should be the rule of the client, the command line and the add-in alike", () => {
    for (const address of ["https://user:secret@host/api", "https://host/api?"]) {
      expect(() => new SpellClient({ apiKey: "k", baseUrl: address, pollBaseUrl: "https://p" }))
        .withContext(address)
        .toThrowError(SpellError, /^SpellClient: baseUrl must not hold/);
      expect(() =>
        resolveConnection({ baseUrl: address, pollBaseUrl: "https://p" }, { SPELL_API_KEY: "k" })
      )
        .withContext(address)
        .toThrowError(/^--base-url must not hold/);
      expect(() => checkServiceAddress("baseUrl", address))
        .withContext(address)
        .toThrowError(/must not contain a user name, password, query or fragment/);
    }
    // The message never repeats the address: it may hold a password.
    let refusal: unknown;
    try {
      resolveConnection(
        { baseUrl: "https://user:secret@host", pollBaseUrl: "https://p" },
        { SPELL_API_KEY: "k" }
      );
    } catch (error) {
      refusal = error;
    }
    expect((refusal as Error).message).toBe("--base-url must not hold a user name or password");
  });
});
