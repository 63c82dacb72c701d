/**
 * `npm test`'s package step: what a user installs. Clones the committed HEAD (so nothing left
 * in a working copy, such as an old `dist/`, slips in), packs the library there (`npm pack`
 * builds it), installs the tarball into a scratch project as a user would, and checks:
 *
 * - the packages installed, printed, at most `MAX_PACKAGES` (the library, rxjs as a peer, the
 *   core's fetch and the command line's parsers; never a web server);
 * - "Are the types wrong?" (`attw`, run on the tarball) finds no problem: `import` gets ES
 *   module types and `require` CommonJS ones, for `spellrun` and `spellrun/node`;
 * - `import` (ESM), `require` (CommonJS) and the types (`tsc` under nodenext and bundler) load,
 *   and a default import (`import spellrun from "spellrun"`, which has no default) fails to
 *   compile rather than at run time;
 * - the `spellrun` command runs, and `spellrun emulator` says the emulator is not installed.
 *
 * Needs no network beyond the npm registry (the tarball's few dependencies). The checkout's own
 * node_modules serve the build in the clone (linked, not installed again).
 *
 * ```sh
 * npx tsx scripts/checkPackage.ts            # --keep leaves the scratch folder for a look
 * ```
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The library and everything it brings, counted as installed packages: 12 until the command
 * line decoded other encodings (iconv-lite and its safer-buffer: 14). The command line's own
 * package, planned, takes its parsers and iconv-lite out of the library's install.
 */
const MAX_PACKAGES = 14;
const root = path.resolve(__dirname, "..");
const keep = process.argv.includes("--keep");

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_fund: "false", npm_config_audit: "false" },
  });
}

/** Every installed package under `node_modules` (nested ones too), as `name@version`. */
function installedPackages(nodeModules: string): string[] {
  const found: string[] = [];
  const visit = (folder: string) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const full = path.join(folder, entry.name);
      if (entry.name.startsWith("@")) {
        visit(full);
        continue;
      }
      const manifest = path.join(full, "package.json");
      if (!existsSync(manifest)) continue;
      const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as {
        name: string;
        version: string;
      };
      found.push(`${name}@${version}`);
      visit(path.join(full, "node_modules"));
    }
  };
  visit(nodeModules);
  return found.sort();
}

const checks: { name: string; ok: boolean; detail: string }[] = [];
function check(name: string, ok: boolean, detail = ""): void {
  checks.push({ name, ok, detail });
  console.log(`${ok ? "ok  " : "FAIL"}  ${name}${detail ? `: ${detail}` : ""}`);
}

/** Runs `node` (or tsc) in the scratch project; ok when it exits 0 (and prints `expected`). */
function nodeCheck(name: string, cwd: string, args: string[], expected?: string): void {
  const result = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  const output = `${result.stdout}${result.stderr}`.trim();
  const ok = result.status === 0 && (expected === undefined || output.includes(expected));
  check(name, ok, ok ? output.split("\n")[0] : output);
}

const work = mkdtempSync(path.join(tmpdir(), "spellrun-package-"));
try {
  const clone = path.join(work, "clone");
  run("git", ["clone", "--quiet", "--no-hardlinks", root, clone], work);
  symlinkSync(path.join(root, "node_modules"), path.join(clone, "node_modules"), "dir");
  // npm pack runs `prepare` (the library's build) and prints the tarball's name last.
  const tarball = run("npm", ["pack", "--silent", "--pack-destination", work], clone)
    .trim()
    .split("\n")
    .pop() as string;
  check("packed from a fresh clone", existsSync(path.join(work, tarball)), tarball);

  const attw = spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js"),
      path.join(work, tarball),
      "--format",
      "table-flipped",
    ],
    { cwd: work, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } }
  );
  console.log(attw.stdout.trim());
  check(
    "attw: no problems with the types",
    attw.status === 0,
    attw.status === 0 ? "" : attw.stderr
  );

  const scratch = path.join(work, "scratch");
  mkdirSync(scratch);
  writeFileSync(
    path.join(scratch, "package.json"),
    JSON.stringify({ name: "scratch", version: "1.0.0", private: true }, null, 2)
  );
  // As a user's project installs it: this repository's .npmrc (legacy-peer-deps, which npm
  // hands on to child processes) must not change how the peer rxjs is installed.
  run(
    "npm",
    ["install", "--legacy-peer-deps=false", "--prefer-offline", path.join(work, tarball)],
    scratch
  );
  const packages = installedPackages(path.join(scratch, "node_modules"));
  console.log(`packages installed: ${packages.length}\n  ${packages.join("\n  ")}`);
  check(
    `at most ${MAX_PACKAGES} packages installed`,
    packages.length <= MAX_PACKAGES,
    String(packages.length)
  );
  check(
    "no web server installed",
    !packages.some((name) => /^(fastify|@fastify\/|pino)/.test(name)),
    packages.filter((name) => /^(fastify|@fastify\/|pino)/.test(name)).join(", ")
  );

  nodeCheck(
    "ESM import",
    scratch,
    [
      "--input-type=module",
      "-e",
      'import { SpellClient, SpellError } from "spellrun"; console.log(typeof SpellClient, typeof SpellError);',
    ],
    "function function"
  );
  nodeCheck(
    "CommonJS require",
    scratch,
    [
      "-e",
      'const { SpellClient, TERMINAL_STATES } = require("spellrun"); console.log(typeof SpellClient, TERMINAL_STATES.join(","));',
    ],
    "function success"
  );
  nodeCheck(
    "spellrun/node by import and require",
    scratch,
    [
      "--input-type=module",
      "-e",
      'import { proxyFromEnvironment } from "spellrun/node"; import { createRequire } from "node:module"; const cjs = createRequire(import.meta.url)("spellrun/node"); console.log(typeof proxyFromEnvironment, typeof cjs.proxyFromEnvironment, JSON.stringify(proxyFromEnvironment({})));',
    ],
    "function function {}"
  );

  // The types, as a TypeScript user compiles against them: ESM and CommonJS files under
  // nodenext, and a bundler project.
  const typed = `import { SpellClient, type SpellClientOptions, type RunSnapshot } from "spellrun";
import { proxyFromEnvironment } from "spellrun/node";
const options: SpellClientOptions = { apiKey: "k", baseUrl: "https://a.example", pollBaseUrl: "https://b.example", ...proxyFromEnvironment({}) };
const client: SpellClient = new SpellClient(options);
export const snapshot: ((s: RunSnapshot) => string) = (s) => s.state;
export { client };
`;
  writeFileSync(path.join(scratch, "esm.mts"), typed);
  writeFileSync(path.join(scratch, "cjs.cts"), typed);
  writeFileSync(path.join(scratch, "bundled.ts"), typed);
  const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
  const common = ["--noEmit", "--strict", "--skipLibCheck", "false", "--lib", "es2022,dom"];
  nodeCheck("types under nodenext (ESM and CommonJS)", scratch, [
    tsc,
    ...common,
    "--module",
    "nodenext",
    "--moduleResolution",
    "nodenext",
    "esm.mts",
    "cjs.cts",
  ]);
  // No default export: under nodenext a default import must not compile (it would crash at run time).
  writeFileSync(
    path.join(scratch, "defaultImport.mts"),
    'import spellrun from "spellrun";\nexport const client = spellrun;\n'
  );
  const defaultImport = spawnSync(
    process.execPath,
    [tsc, ...common, "--module", "nodenext", "--moduleResolution", "nodenext", "defaultImport.mts"],
    { cwd: scratch, encoding: "utf8" }
  );
  check(
    "a default import of spellrun fails to compile under nodenext",
    defaultImport.status !== 0 && defaultImport.stdout.includes("no default export"),
    defaultImport.stdout.trim().split("\n")[0] ?? ""
  );
  nodeCheck("types under bundler resolution", scratch, [
    tsc,
    ...common,
    "--module",
    "esnext",
    "--moduleResolution",
    "bundler",
    "bundled.ts",
  ]);

  const bin = path.join(scratch, "node_modules", ".bin", "spellrun");
  nodeCheck("spellrun --version", scratch, [bin, "--version"], "0.");
  const emulator = spawnSync(process.execPath, [bin, "emulator"], {
    cwd: scratch,
    encoding: "utf8",
  });
  check(
    "spellrun emulator says it is not installed (exit 2)",
    emulator.status === 2 && emulator.stderr.includes("not part of this installation"),
    `exit ${emulator.status}: ${emulator.stderr.trim()}`
  );
} finally {
  if (keep) console.log(`scratch folder kept: ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

const failed = checks.filter((c) => !c.ok).length;
console.log(`package: ${checks.length - failed} checks passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
