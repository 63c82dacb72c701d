import { readFileSync } from "node:fs";
import path from "node:path";
import * as root from "../../src/index.js";
import * as client from "../../src/client/index.js";
import { firstLoad, type FirstLoad } from "../../scripts/firstLoad.js";

const repository = path.join(__dirname, "..", "..");
/** Issue 25's goal for `import { SpellClient }` in a browser page, with rxjs, esbuild, gzip. */
const GOAL_GZIP_BYTES = 12_000;

describe("import { SpellClient }, a browser page's first load", () => {
  let load: FirstLoad;
  let inputs: string[];
  let fromRoot: FirstLoad;

  beforeAll(() => {
    load = firstLoad(`export { SpellClient } from "./src/client/index.ts";`, repository);
    inputs = [...load.bytesByInput].filter(([, bytes]) => bytes > 0).map(([file]) => file);
    fromRoot = firstLoad(`export { SpellClient } from "./src/index.ts";`, repository);
  });

  it(`should load at most ${GOAL_GZIP_BYTES / 1000} KB gzip (esbuild, with rxjs) before the first call`, () => {
    expect(load.gzip).toBeLessThanOrEqual(GOAL_GZIP_BYTES);
  });

  it("should load no more from spellrun than from spellrun/client", () => {
    expect(fromRoot.gzip).toBe(load.gzip);
    expect(fromRoot.atLoad.length).toBe(load.atLoad.length);
  });

  it("should keep the main entries to `export *` lines (a named re-export makes esbuild load every file they name)", () => {
    for (const index of ["src/index.ts", "src/bulkJob/index.ts"]) {
      const text = readFileSync(path.join(repository, index), "utf8");
      const named = text.match(/^export (type )?\{[^}]*\} from "[^"]+";$/gm) ?? [];
      // rowFingerprint.ts keeps an internal constant beside its two public functions.
      expect(named.filter((line) => !line.includes("./rowFingerprint.js")))
        .withContext(index)
        .toEqual([]);
    }
  });

  it("should leave the client's core, the bulk paths and rxjs's subjects to the first call", () => {
    // A file reached at load through rxjs's index (or the core) brings these along at once:
    // the at-load files take rxjs from its own files.
    for (const lazy of [
      "src/runs/clientCore.ts",
      "src/runs/clientBulk.ts",
      "src/operators/pollUntilDone.ts",
      "src/operators/retryTransient.ts",
      "src/runs/clientRun.ts",
      "src/http/SpellApi.ts",
    ]) {
      // Built (a lazy chunk holds it), but not loaded at once.
      expect(Object.keys(load.metafile.inputs)).withContext(lazy).toContain(lazy);
      expect(inputs).withContext(lazy).not.toContain(lazy);
    }
    expect(inputs.filter((file) => /rxjs\/dist\/[^/]+\/index\.js$/.test(file))).toEqual([]);
    expect(
      inputs.filter((file) => /rxjs\/.*\/(ReplaySubject|AsyncSubject)\.js$/.test(file))
    ).toEqual([]);
    expect(inputs).toContain("src/SpellClient.ts");
  });

  it("should export the very objects the main entry exports (errors stay instanceof across them)", () => {
    const names = Object.keys(client);
    expect(names).toContain("SpellClient");
    expect(names).toContain("isSpellError");
    expect(names).toContain("SpellHttpError");
    for (const name of names) {
      expect(client[name as keyof typeof client])
        .withContext(name)
        .toBe(root[name as keyof typeof root] as never);
    }
  });
});
