import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { importCircles } from "../../scripts/checkImportCircles.js";

describe("checkImportCircles (npm test's import-circles step)", () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "spellrun-circles-"));
    writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: {} }));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const write = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(root, "lib", file)), { recursive: true });
    writeFileSync(path.join(root, "lib", file), text);
  };

  it("should find two files that import each other, type imports included", async () => {
    write("a.ts", 'import type { B } from "./b.js";\nexport type A = B;\n');
    write(
      "b.ts",
      'import { c } from "./c.js";\nimport type { A } from "./a.js";\nexport type B = A | typeof c;\n'
    );
    write("c.ts", "export const c = 1;\n");
    const { fileCircles } = await importCircles("lib", root);
    expect(fileCircles).toEqual([["a.ts", "b.ts"]]);
  });

  it("should find a top-level file and a folder that import each other, with the imports as evidence", async () => {
    write(
      "types.ts",
      'import type { Endpoint } from "./http/endpoints.js";\nexport type T = Endpoint;\n'
    );
    write("http/endpoints.ts", "export type Endpoint = string;\n");
    write(
      "http/api.ts",
      'import type { T } from "../types.js";\nexport const api = (t: T) => t;\n'
    );
    const { fileCircles, folderCircles } = await importCircles("lib", root);
    expect(fileCircles).toEqual([]);
    expect(folderCircles).toEqual([
      {
        members: ["http/", "types.ts"],
        imports: jasmine.arrayWithExactContents([
          "http/api.ts -> types.ts",
          "types.ts -> http/endpoints.ts",
        ]) as unknown as string[],
      },
    ]);
  });

  it("should find no circle when the lower folder alone imports the higher one", async () => {
    write("types.ts", "export type Endpoint = string;\n");
    write(
      "http/api.ts",
      'import type { Endpoint } from "../types.js";\nexport const api = (e: Endpoint) => e;\n'
    );
    write("client.ts", 'import { api } from "./http/api.js";\nexport const client = api;\n');
    expect(await importCircles("lib", root)).toEqual({ fileCircles: [], folderCircles: [] });
  });
});
