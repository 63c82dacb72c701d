import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import {
  EXAMPLE_ADDIN_ID,
  EXAMPLE_ADDIN_URL,
  EXAMPLE_ENTRA_CLIENT_ID,
  productionAddinBuild,
} from "../addin-server/support/productionAddinBuild.js";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rules = require("../../scripts/productionBuildRules.cjs") as {
  productionAddresses(env: NodeJS.ProcessEnv): {
    addinUrl: string;
    serviceBaseUrl: string;
    servicePollBaseUrl: string;
  };
  productionIdentity(
    env: NodeJS.ProcessEnv,
    packageVersion: string
  ): { id: string; providerName: string; version: string };
  productionSignIn(
    env: NodeJS.ProcessEnv,
    addinUrl: string
  ): { id: string; resource: string; scopes: string[] } | undefined;
  rewriteManifest(
    xml: string,
    devUrl: string,
    addinUrl: string,
    identity?: { id: string; providerName: string; version: string },
    webApplicationInfo?: { id: string; resource: string; scopes: string[] }
  ): string;
  DEV_ADDIN_ID: string;
};

/** The bundles taskpane.html loads, in order. */
function pageScripts(folder: string): string[] {
  const page = readFileSync(path.join(folder, "taskpane.html"), "utf8");
  return [...page.matchAll(/<script[^>]*\ssrc="?([^"\s>]+)/g)]
    .map((match) => match[1])
    .filter((src) => !src.startsWith("https://"));
}

/** Every file under a folder, as paths relative to it. */
function filesUnder(folder: string, prefix = ""): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory()
      ? filesUnder(full, `${prefix}${name}/`)
      : [`${prefix}${name}`];
  });
}

describe("the production build of the add-in", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await productionAddinBuild();
  }, 240_000);

  it("should leave no loopback address in any file of the folder to host, manifest included", () => {
    const files = filesUnder(folder);
    expect(files).toContain("manifest.xml");
    expect(files).toContain("taskpane.html");
    for (const file of files) {
      const text = readFileSync(path.join(folder, file), "latin1");
      expect(/localhost|127\.0\.0\.1|\[::1\]/i.exec(text)?.[0])
        .withContext(file)
        .toBeUndefined();
    }
  });

  it("should keep source maps beside the folder to host, not in it, and reference none", () => {
    const files = filesUnder(folder);
    expect(files.filter((file) => file.endsWith(".map"))).toEqual([]);
    for (const file of files.filter((name) => name.endsWith(".js"))) {
      expect(readFileSync(path.join(folder, file), "utf8")).not.toContain("sourceMappingURL");
    }
    const maps = path.join(folder, "..", "addin-sourcemaps");
    expect(pageScripts(folder).length).toBe(2);
    for (const script of pageScripts(folder)) {
      expect(existsSync(path.join(maps, `${script}.map`)))
        .withContext(script)
        .toBeTrue();
    }
  });

  it("should point every manifest URL at the add-in's host and drop the dev AppDomains", () => {
    const manifest = readFileSync(path.join(folder, "manifest.xml"), "utf8");
    const urls = [...manifest.matchAll(/https?:\/\/[^"<\s]+/g)]
      .map((match) => match[0])
      // Namespaces are names, not addresses the add-in is loaded from.
      .filter(
        (url) =>
          !url.startsWith("http://schemas.microsoft.com/") && !url.startsWith("http://www.w3.org/")
      );
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect(url.startsWith(EXAMPLE_ADDIN_URL)).withContext(url).toBeTrue();
    expect(manifest).not.toContain("<AppDomains>");
    expect(manifest).toContain(
      `<SourceLocation DefaultValue="${EXAMPLE_ADDIN_URL}taskpane.html" />`
    );
  });

  it("should name its bundles by content hash, load those from the page and keep functions.js for the manifest", () => {
    const scripts = pageScripts(folder);
    expect(scripts).toEqual([
      jasmine.stringMatching(/^functions\.[0-9a-f]{20}\.js$/),
      jasmine.stringMatching(/^taskpane\.[0-9a-f]{20}\.js$/),
    ]);
    const files = filesUnder(folder);
    expect(files.filter((file) => /^(functions|taskpane)\.js$/.test(file))).toEqual([
      "functions.js",
    ]);
    expect(readFileSync(path.join(folder, "functions.js"))).toEqual(
      readFileSync(path.join(folder, scripts[0]))
    );
    const manifest = readFileSync(path.join(folder, "manifest.xml"), "utf8");
    expect(manifest).toContain(
      `<bt:Url id="Functions.Script.Url" DefaultValue="${EXAMPLE_ADDIN_URL}functions.js" />`
    );
    // Written pre-compressed too, byte for byte the same once unpacked.
    for (const script of scripts) {
      expect(brotliDecompressSync(readFileSync(path.join(folder, `${script}.br`)))).toEqual(
        readFileSync(path.join(folder, script))
      );
      expect(files).toContain(`${script}.gz`);
    }
  });

  it("should write the manifest's Id from SPELLRUN_ADDIN_ID, never the repository's development Id", () => {
    const manifest = readFileSync(path.join(folder, "manifest.xml"), "utf8");
    expect(manifest).toContain(`<Id>${EXAMPLE_ADDIN_ID}</Id>`);
    expect(manifest).not.toContain(rules.DEV_ADDIN_ID);
    const devManifest = readFileSync(path.join(__dirname, "..", "..", "manifest.xml"), "utf8");
    expect(devManifest).toContain(`<Id>${rules.DEV_ADDIN_ID}</Id>`);
  });

  it("should put organisation mode's WebApplicationInfo (SPELLRUN_ENTRA_CLIENT_ID) last in VersionOverrides, read by office-addin-manifest", async () => {
    const manifestPath = path.join(folder, "manifest.xml");
    const xml = readFileSync(manifestPath, "utf8");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const xml2js = require("xml2js") as {
      parseStringPromise(xml: string): Promise<{
        OfficeApp: { VersionOverrides: Record<string, unknown[]>[] };
      }>;
    };
    const parsed = await xml2js.parseStringPromise(xml);
    const overrides = parsed.OfficeApp.VersionOverrides[0]!;
    const children = Object.keys(overrides).filter((name) => name !== "$");
    expect(children[children.length - 1]).toBe("WebApplicationInfo");
    expect(overrides.WebApplicationInfo).toEqual([
      {
        Id: [EXAMPLE_ENTRA_CLIENT_ID],
        Resource: [`api://addin.example.com/${EXAMPLE_ENTRA_CLIENT_ID}`],
        Scopes: [{ Scope: ["openid", "profile"] }],
      },
    ]);
    // The element's place in the text too (xml2js groups children by name).
    expect(xml.indexOf("<WebApplicationInfo>")).toBeGreaterThan(xml.lastIndexOf("</Resources>"));
    expect(xml.indexOf("</WebApplicationInfo>")).toBeLessThan(
      xml.lastIndexOf("</VersionOverrides>")
    );
    const { OfficeAddinManifest } =
      (await import("office-addin-manifest")) as typeof import("office-addin-manifest");
    const info = await OfficeAddinManifest.readManifestFile(manifestPath);
    expect(info.id).toBe(EXAMPLE_ADDIN_ID);
    expect(info.hosts).toEqual(["Workbook"]);
  });

  it("should make WebApplicationInfo only from a client id that is a GUID, with a resource naming it and scopes", () => {
    const url = "https://excel.example.com/app/";
    const refusal = (env: NodeJS.ProcessEnv) => {
      try {
        return JSON.stringify(rules.productionSignIn(env, url));
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(rules.productionSignIn({}, url)).toBeUndefined();
    expect(refusal({ SPELLRUN_ENTRA_CLIENT_ID: "my-app" })).toContain(
      "must be the app registration's"
    );
    const id = "0b0e5a55-1d2c-4e3f-8a9b-0c1d2e3f4a5b";
    expect(rules.productionSignIn({ SPELLRUN_ENTRA_CLIENT_ID: id.toUpperCase() }, url)).toEqual({
      id,
      resource: `api://excel.example.com/${id}`,
      scopes: ["openid", "profile"],
    });
    expect(
      refusal({ SPELLRUN_ENTRA_CLIENT_ID: id, SPELLRUN_ENTRA_RESOURCE: "https://x.example/" })
    ).toContain("SPELLRUN_ENTRA_RESOURCE must be");
    expect(refusal({ SPELLRUN_ENTRA_CLIENT_ID: id, SPELLRUN_ENTRA_SCOPES: "a b" })).toContain(
      "SPELLRUN_ENTRA_SCOPES must be"
    );
    const info = rules.productionSignIn(
      { SPELLRUN_ENTRA_CLIENT_ID: id, SPELLRUN_ENTRA_SCOPES: "openid, profile, offline_access" },
      url
    )!;
    const manifest = readFileSync(path.join(__dirname, "..", "..", "manifest.xml"), "utf8");
    // Rewritten twice (a manifest that had one already): one element, the new one.
    const once = rules.rewriteManifest(manifest, "https://localhost:3000/", url, undefined, {
      ...info,
      id: "11111111-1111-4111-8111-111111111111",
    });
    const twice = rules.rewriteManifest(once, url, url, undefined, info);
    expect(twice.match(/<WebApplicationInfo>/g)?.length).toBe(1);
    expect(twice).toContain("<Scope>offline_access</Scope>");
    expect(twice).not.toContain("11111111-1111");
  });

  it("should build the pane to go through its host when no service was named", () => {
    const bundle = readFileSync(path.join(folder, "functions.js"), "utf8");
    expect(bundle).toContain('"addinHost"');
    expect(bundle).toContain("/spell-api");
  });
});

describe("the production build's refusals (scripts/productionBuildRules.cjs)", () => {
  const refusal = (env: NodeJS.ProcessEnv) => {
    try {
      rules.productionAddresses(env);
    } catch (error) {
      return (error as Error).message;
    }
    return "accepted";
  };

  it("should refuse a missing add-in URL, saying what to set and where to read more", () => {
    const message = refusal({});
    expect(message).toContain("Set SPELLRUN_ADDIN_URL to the https:// address");
    expect(message).toContain("docs/deploy.md");
  });

  it("should refuse an http:// or loopback add-in URL", () => {
    expect(refusal({ SPELLRUN_ADDIN_URL: "http://excel.example.com/" })).toContain(
      "SPELLRUN_ADDIN_URL must use https://"
    );
    for (const host of ["localhost:3000", "127.0.0.1", "[::1]", "dev.localhost"]) {
      expect(refusal({ SPELLRUN_ADDIN_URL: `https://${host}/` }))
        .withContext(host)
        .toContain("points at this computer");
    }
  });

  it("should refuse service URLs that are not https, or only one of the two", () => {
    const addin = { SPELLRUN_ADDIN_URL: "https://excel.example.com/app" };
    expect(
      refusal({
        ...addin,
        SPELL_BASE_URL: "http://api.example.com",
        SPELL_POLL_BASE_URL: "https://poll.example.com",
      })
    ).toContain("SPELL_BASE_URL must use https://");
    expect(refusal({ ...addin, SPELL_BASE_URL: "https://api.example.com" })).toContain(
      "Set both SPELL_BASE_URL and SPELL_POLL_BASE_URL"
    );
    expect(
      rules.productionAddresses({
        ...addin,
        SPELL_BASE_URL: "https://api.example.com/v1/",
        SPELL_POLL_BASE_URL: "https://poll.example.com",
      })
    ).toEqual({
      addinUrl: "https://excel.example.com/app/",
      serviceBaseUrl: "https://api.example.com/v1",
      servicePollBaseUrl: "https://poll.example.com",
    });
  });

  it("should refuse a missing, malformed or the repository's manifest Id, and a malformed version", () => {
    const identityRefusal = (env: NodeJS.ProcessEnv) => {
      try {
        rules.productionIdentity(env, "0.1.0");
      } catch (error) {
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(identityRefusal({})).toContain("Set SPELLRUN_ADDIN_ID to your add-in's own GUID");
    expect(identityRefusal({ SPELLRUN_ADDIN_ID: "my-addin" })).toContain("must be a GUID");
    expect(identityRefusal({ SPELLRUN_ADDIN_ID: rules.DEV_ADDIN_ID.toUpperCase() })).toContain(
      "the repository's development Id"
    );
    const id = "0b0e5a55-1d2c-4e3f-8a9b-0c1d2e3f4a5b";
    expect(
      identityRefusal({ SPELLRUN_ADDIN_ID: id, SPELLRUN_ADDIN_VERSION: "1.2.3.4.5" })
    ).toContain("SPELLRUN_ADDIN_VERSION must be");
    expect(rules.productionIdentity({ SPELLRUN_ADDIN_ID: id }, "0.1.0")).toEqual({
      id,
      providerName: "spellrun",
      version: "0.1.0.0",
    });
    const identity = rules.productionIdentity(
      {
        SPELLRUN_ADDIN_ID: id,
        SPELLRUN_PROVIDER_NAME: "Contoso <IT> & Co",
        SPELLRUN_ADDIN_VERSION: "2.3.0.1",
      },
      "0.1.0"
    );
    const manifest = readFileSync(path.join(__dirname, "..", "..", "manifest.xml"), "utf8");
    const rewritten = rules.rewriteManifest(
      manifest,
      "https://localhost:3000/",
      "https://x.example/",
      identity
    );
    expect(rewritten).toContain(`<Id>${id}</Id>`);
    expect(rewritten).toContain("<Version>2.3.0.1</Version>");
    expect(rewritten).toContain("<ProviderName>Contoso &#60;IT&#62; &#38; Co</ProviderName>");
  });

  it("should rewrite the manifest's dev URLs and drop its comments and dev AppDomains", () => {
    const manifest = readFileSync(path.join(__dirname, "..", "..", "manifest.xml"), "utf8");
    const rewritten = rules.rewriteManifest(
      manifest,
      "https://localhost:3000/",
      "https://x.example/"
    );
    expect(rewritten).not.toMatch(/localhost|<!--|<AppDomains>/);
    expect(rewritten).toContain('<IconUrl DefaultValue="https://x.example/assets/icon-32.png" />');
  });
});
