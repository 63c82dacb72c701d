import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.join(__dirname, "../..");

/** Loads the library in a fresh Node (CommonJS, as `require("spellrun")` does) and makes a client. */
function loadedModules(script: string): { modules: string[]; stderr: string } {
  const result = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "-e",
      `const { SpellClient } = require("./src/index.ts");
       ${script}
       setTimeout(() => console.log(JSON.stringify(Object.keys(require.cache))), 300);`,
    ],
    { cwd: root, encoding: "utf8" }
  );
  expect(result.status).withContext(result.stderr).toBe(0);
  return { modules: JSON.parse(result.stdout) as string[], stderr: result.stderr };
}

describe("cross-fetch on a platform with fetch", () => {
  it("should never be loaded where fetch exists (Node 20 and later), nor warn", () => {
    const { modules, stderr } = loadedModules(
      `new SpellClient({ apiKey: "k", baseUrl: "http://127.0.0.1:9", pollBaseUrl: "http://127.0.0.1:9" });`
    );
    expect(modules.filter((file) => /cross-fetch|node-fetch|whatwg-url/.test(file))).toEqual([]);
    expect(stderr).not.toContain("DeprecationWarning");
  });

  it("should be loaded on the first request where there is no global fetch", () => {
    const { modules } = loadedModules(
      `delete globalThis.fetch;
       const client = new SpellClient({ apiKey: "k", baseUrl: "http://127.0.0.1:9", pollBaseUrl: "http://127.0.0.1:9", retry: { limit: 0 } });
       client.run("echo", {}, { wait: false }).subscribe({ error: () => undefined });`
    );
    expect(modules.some((file) => file.includes("cross-fetch"))).toBeTrue();
  });
});
