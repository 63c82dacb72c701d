/**
 * `npm test`'s import-circles step: no module of the core (`src/`) or of a front end (`addin/`,
 * `taskpane/`, `functions/`, `cli/`) imports itself back, through any chain of imports (type
 * imports included), and no folder of them does either: with each sub-folder taken as one node
 * beside the files at the top (so `http/` may import `types.ts`, but then `types.ts` must not
 * reach `http/`), a lower folder never imports a higher one. Prints each circle and fails.
 *
 * The import graph is madge's (TypeScript's own module resolution, so `./x.js` finds `x.ts`
 * and `spellrun` finds `src/index.ts` through tsconfig.json's `paths`); no network.
 *
 * ```sh
 * npx tsx scripts/checkImportCircles.ts            # every checked folder
 * npx tsx scripts/checkImportCircles.ts src cli    # some of them
 * ```
 */
import { createRequire } from "node:module";
import path from "node:path";

/** What this script uses of madge (a devDependency; no types of its own). */
interface MadgeResult {
  obj(): Record<string, string[]>;
  circular(): string[][];
}
type Madge = (
  root: string,
  config: { fileExtensions: string[]; tsConfig: string; baseDir?: string }
) => Promise<MadgeResult>;

const madge = createRequire(__filename)("madge") as Madge;

/** The folders checked by default, each on its own (an import out of one is followed). */
export const CHECKED_FOLDERS = ["src", "addin", "taskpane", "functions", "cli"] as const;

/**
 * The import circles of one folder.
 *
 * ## Example
 * ```ts
 * const { fileCircles, folderCircles } = await importCircles("src");
 * ```
 *
 * @param folder The folder, relative to `repositoryRoot` or absolute.
 * @param repositoryRoot Where tsconfig.json is (its `paths` resolve `spellrun`).
 * @return `fileCircles`: chains of files, each importing the next and the last the first
 *   (paths relative to `folder`); `folderCircles`: groups of top-level files and sub-folders
 *   (`http/`) that import each other round, with one import per edge as evidence.
 */
export async function importCircles(
  folder: string,
  repositoryRoot: string = path.join(__dirname, "..")
): Promise<{ fileCircles: string[][]; folderCircles: { members: string[]; imports: string[] }[] }> {
  const root = path.resolve(repositoryRoot, folder);
  const graph = await madge(root, {
    fileExtensions: ["ts"],
    tsConfig: path.join(repositoryRoot, "tsconfig.json"),
    baseDir: root,
  });
  return { fileCircles: graph.circular(), folderCircles: folderCircles(graph.obj()) };
}

/** A file's node in the folder graph: a top-level file itself, a deeper one its first folder. */
function folderNode(file: string): string | undefined {
  if (file.startsWith("../")) return undefined; // outside the folder: checked on its own
  const slash = file.indexOf("/");
  return slash < 0 ? file : file.slice(0, slash + 1);
}

/** Strongly connected groups of more than one node (Tarjan), with an import for each edge. */
function folderCircles(
  files: Record<string, string[]>
): { members: string[]; imports: string[] }[] {
  const edges = new Map<string, Map<string, string>>();
  for (const [file, imports] of Object.entries(files)) {
    const from = folderNode(file);
    for (const imported of imports) {
      const to = folderNode(imported);
      if (from === undefined || to === undefined || from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${file} -> ${imported}`);
    }
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return groups.map((members) => ({
    members,
    imports: members.flatMap((from) =>
      members.flatMap((to) => {
        const evidence = edges.get(from)?.get(to);
        return evidence === undefined ? [] : [evidence];
      })
    ),
  }));
}

async function main(): Promise<void> {
  const folders = process.argv.length > 2 ? process.argv.slice(2) : [...CHECKED_FOLDERS];
  let found = 0;
  for (const folder of folders) {
    const { fileCircles, folderCircles } = await importCircles(folder);
    for (const circle of fileCircles) {
      console.log(
        `${folder}: files import each other round: ${[...circle, circle[0]].join(" > ")}`
      );
    }
    for (const { members, imports } of folderCircles) {
      console.log(`${folder}: folders import each other round: ${members.join(", ")}`);
      for (const evidence of imports) console.log(`    ${evidence}`);
    }
    found += fileCircles.length + folderCircles.length;
    if (fileCircles.length + folderCircles.length === 0) console.log(`${folder}: no import circle`);
  }
  if (found > 0) {
    console.log(`\n${found} import circle(s): move what both sides need to the lower one.`);
    process.exitCode = 1;
  }
}

if (require.main === module) void main();
