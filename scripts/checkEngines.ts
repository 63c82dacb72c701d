/**
 * `npm test`'s engines step: every installed package (dependencies and dev dependencies, nested
 * copies included) supports every Node version our own packages declare (`engines.node` of the
 * root, addin-server and emulator). A package whose range leaves out part of ours (say
 * `content-disposition@3`, Node >= 22, under a package that declares Node 20) fails the step with
 * its path, version and range, so the declaration stays true as dependencies move. The Node
 * running the step must be in our range too, so `npm test` tests a version we declare.
 *
 * Reads only package.json files (`semver.subset(ours, theirs)`); no network.
 *
 * ```sh
 * npx tsx scripts/checkEngines.ts
 * ```
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.join(__dirname, "..");
// semver is in the tree already (npm's and many tools' dependency); no types of its own here.
const semver = createRequire(__filename)("semver") as {
  subset(range: string, superset: string): boolean;
  satisfies(version: string, range: string): boolean;
  validRange(range: string): string | null;
};

interface Manifest {
  name?: string;
  version?: string;
  engines?: { node?: unknown };
  workspaces?: string[];
}

const readManifest = (folder: string): Manifest | undefined => {
  try {
    return JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8")) as Manifest;
  } catch {
    return undefined;
  }
};

/** Every package folder below a node_modules folder, nested node_modules included. */
function installedPackages(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".") || !(entry.isDirectory() || entry.isSymbolicLink())) return [];
    const folder = path.join(nodeModules, entry.name);
    if (entry.name.startsWith("@")) return installedPackages(folder);
    // Workspace links (addin-server, cli, emulator, and spellrun: the root) are checked as our own packages.
    if (entry.isSymbolicLink()) return [];
    return [folder, ...installedPackages(path.join(folder, "node_modules"))];
  });
}

const rootManifest = readManifest(root)!;
const ours = [root, ...(rootManifest.workspaces ?? []).map((name) => path.join(root, name))];
const problems: string[] = [];
for (const folder of ours) {
  const manifest = readManifest(folder);
  const range = manifest?.engines?.node;
  if (typeof range !== "string" || !semver.validRange(range)) {
    problems.push(`${path.relative(root, folder) || "."}: declares no engines.node range`);
    continue;
  }
  if (!semver.satisfies(process.version, range)) {
    problems.push(
      `${manifest!.name} declares Node "${range}", but this is Node ${process.version}`
    );
  }
  const trees = [path.join(root, "node_modules"), path.join(folder, "node_modules")];
  const checked = [...new Set(trees)].flatMap(installedPackages);
  for (const dependency of checked) {
    const theirs = readManifest(dependency)?.engines?.node;
    if (typeof theirs !== "string" || !semver.validRange(theirs)) continue;
    if (!semver.subset(range, theirs)) {
      const { name, version } = readManifest(dependency)!;
      problems.push(
        `${manifest!.name} declares Node "${range}", but ${name}@${version} ` +
          `(${path.relative(root, dependency)}) needs "${theirs}"`
      );
    }
  }
}
if (problems.length > 0) {
  console.error(
    `Engines not true for the whole dependency tree:\n  ${[...new Set(problems)].join("\n  ")}`
  );
  process.exit(1);
}
console.log(
  `engines: every installed package supports the Node versions of ${ours.length} packages`
);
