import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.join(__dirname, "..", "..");
/** The documents whose TypeScript a library user copies. */
const DOCUMENTS = ["README.md", "docs/library.md"];

/**
 * Names the documents' fragments use without defining them (a fragment shows one call, not the
 * program around it), declared once with the types a user's program would give them.
 */
const AMBIENT = `import type { SpellClient } from "spellrun";
declare global {
  const client: SpellClient;
  const rows: AsyncIterable<{ body: string }>;
  function save(index: number, status: string, outputs: Record<string, unknown>): void;
}
export {};
`;

interface Snippet {
  document: string;
  line: number;
  code: string;
}

/** Every ```ts block of a Markdown document, with the line it starts on. */
function snippetsOf(document: string): Snippet[] {
  const lines = readFileSync(path.join(root, document), "utf8").split("\n");
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== "```ts") continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end].trim() !== "```") end++;
    snippets.push({ document, line: start + 1, code: lines.slice(start, end).join("\n") });
    i = end;
  }
  return snippets;
}

describe("TypeScript in README.md and docs/library.md", () => {
  it("should compile under strict with exactOptionalPropertyTypes, each snippet as a module of a project importing spellrun", () => {
    // Inside the checkout, so that rxjs and @types/node resolve from its node_modules.
    const project = path.join(root, "node_modules", ".cache", "spellrun-doc-snippets");
    rmSync(project, { recursive: true, force: true });
    mkdirSync(project, { recursive: true });
    const snippets = DOCUMENTS.flatMap(snippetsOf);
    const files = snippets.map((snippet, index) => {
      const name = `${path.basename(snippet.document, ".md")}-${snippet.line}-${index}.mts`;
      // A module each (top-level await allowed, no clash between snippets).
      writeFileSync(path.join(project, name), `${snippet.code}\nexport {};\n`);
      return name;
    });
    writeFileSync(path.join(project, "ambient.d.mts"), AMBIENT);
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          // A user's project may set it: an option a document passes a value to that may be
          // undefined (`resume: await store.load()`) must say `| undefined`.
          exactOptionalPropertyTypes: true,
          noEmit: true,
          target: "ES2022",
          module: "ESNext",
          moduleResolution: "Bundler",
          lib: ["ES2022", "DOM"],
          types: ["node"],
          skipLibCheck: true,
          paths: {
            spellrun: [path.join(root, "src", "index.ts")],
            "spellrun/client": [path.join(root, "src", "client", "index.ts")],
            "spellrun/node": [path.join(root, "src", "node", "index.ts")],
          },
        },
        files: ["ambient.d.mts", ...files],
      })
    );
    const tsc = spawnSync(
      process.execPath,
      [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", project],
      { encoding: "utf8" }
    );
    // Each error names its snippet's file: the document and the line its block starts on. The
    // library's own sources are checked by its own tsconfig (without exactOptionalPropertyTypes):
    // only the errors of the snippets count here, with their indented details.
    const errors: string[] = [];
    let inSnippet = false;
    for (const line of tsc.stdout.split("\n")) {
      if (/^\S/.test(line)) inSnippet = /^\S+\.mts\(/.test(line);
      if (inSnippet && line.trim() !== "") errors.push(line);
    }
    expect(errors.join("\n")).toBe("");
    expect(snippets.length).toBeGreaterThanOrEqual(8);
    expect(tsc.status === 0 || tsc.stdout.includes("error TS")).toBeTrue();
  }, 120_000);
});
