import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

type DefinePlugin = { definitions: Record<string, unknown> };
type WebpackConfig = (
  env: Record<string, unknown>,
  options: { mode: string }
) => Promise<{ plugins: object[] }>;

const configFile = fileURLToPath(new URL("../../webpack.config.js", import.meta.url));
const require = createRequire(import.meta.url);

/** What webpack.config.js defines as the settings' built-in service addresses for a build. */
async function builtInAddresses(
  mode: "production" | "development",
  environment: Record<string, string>
) {
  const names = [
    "SPELL_BASE_URL",
    "SPELL_POLL_BASE_URL",
    "SPELLRUN_ADDIN_URL",
    "SPELLRUN_ADDIN_ID",
  ];
  const saved = names.map((name) => process.env[name]);
  for (const name of names) delete process.env[name];
  // A production build needs the add-in's https address (it refuses to build without one).
  // and its own manifest Id.
  if (mode === "production") {
    process.env.SPELLRUN_ADDIN_URL = "https://addin.example.com/";
    process.env.SPELLRUN_ADDIN_ID = "e27a0de5-7e57-4b1d-9c1a-000000000027";
  }
  Object.assign(process.env, environment);
  try {
    const { DefinePlugin } = require("webpack") as {
      DefinePlugin: new (...args: never[]) => object;
    };
    const config = await (require(configFile) as WebpackConfig)({ WEBPACK_BUILD: true }, { mode });
    const define = config.plugins.find((plugin) => plugin instanceof DefinePlugin) as DefinePlugin;
    return {
      baseUrl: JSON.parse(define.definitions.SPELLRUN_DEFAULT_BASE_URL as string) as string,
      pollBaseUrl: JSON.parse(
        define.definitions.SPELLRUN_DEFAULT_POLL_BASE_URL as string
      ) as string,
      route: JSON.parse(define.definitions.SPELLRUN_DEFAULT_SERVICE_ROUTE as string) as string,
    };
  } finally {
    names.forEach((name, index) => {
      if (saved[index] === undefined) delete process.env[name];
      else process.env[name] = saved[index];
    });
  }
}

describe("built-in service addresses (webpack.config.js)", () => {
  it("should leave a production build without SPELL_BASE_URL not set, never 127.0.0.1", async () => {
    expect(await builtInAddresses("production", {})).toEqual({
      baseUrl: "",
      pollBaseUrl: "",
      // ... and goes through the add-in's host (the add-in server forwards the calls).
      route: "addinHost",
    });
  });

  it("should build in SPELL_BASE_URL and SPELL_POLL_BASE_URL when given", async () => {
    expect(
      await builtInAddresses("production", {
        SPELL_BASE_URL: "https://api.example.com",
        SPELL_POLL_BASE_URL: "https://poll.example.com",
      })
    ).toEqual({
      baseUrl: "https://api.example.com",
      pollBaseUrl: "https://poll.example.com",
      route: "direct",
    });
  });

  it("should point the dev build at the emulator behind the dev server's https proxy", async () => {
    const { baseUrl, pollBaseUrl, route } = await builtInAddresses("development", {});
    expect(baseUrl).toMatch(/^https:\/\/localhost:\d+\/spell-api$/);
    expect(pollBaseUrl).toMatch(/^https:\/\/localhost:\d+\/spell-poll$/);
    // The same proxy, reached through the page's own origin by default.
    expect(route).toBe("addinHost");
  });

  it("should refuse a production build without an https add-in URL, by throwing, not exiting", async () => {
    await expectAsync(
      builtInAddresses("production", { SPELLRUN_ADDIN_URL: "http://addin.example.com/" })
    ).toBeRejectedWithError(/The production build stopped: SPELLRUN_ADDIN_URL must use https/);
  });
});
