/**
 * `npm test`'s package step: what a user installs. Clones the committed HEAD (so nothing left
 * in a working copy, such as an old `dist/`, slips in), packs the library and the command's
 * package (cli/) there (`npm pack` builds each), installs the library's tarball into a scratch
 * project as a user would, and both tarballs into another, and checks:
 *
 * - the packed package.json files carry no scripts and no development fields, and the command's
 *   depends on the library by version (not by the workspace's `file:..`);
 * - the library's install, printed, at most `MAX_PACKAGES` packages (the library, rxjs as a
 *   peer, the core's fetch and undici for `spellrun/node`; none of the command's parsers, never
 *   a web server), and npm names no install script of ours;
 * - "Are the types wrong?" (`attw`, run on the library's tarball) finds no problem: `import`
 *   gets ES module types and `require` CommonJS ones, for `spellrun`, `spellrun/client` and
 *   `spellrun/node`;
 * - `import` (ESM), `require` (CommonJS) and the types (`tsc` under nodenext and bundler) load,
 *   and a default import (`import spellrun from "spellrun"`, which has no default) fails to
 *   compile rather than at run time, from an ES module and from CommonJS (esModuleInterop);
 * - the command's install, printed, at most `MAX_CLI_PACKAGES`; `spellrun --version` and
 *   `--help` run (offering no emulator), and `spellrun emulator` says the emulator is not installed.
 *
 * Needs no network beyond the npm registry (the tarballs' few dependencies). The checkout's own
 * node_modules serve the builds in the clone (linked, not installed again).
 *
 * ```sh
 * npx tsx scripts/checkPackage.ts            # --keep leaves the scratch folder for a look
 * ```
 */
import { userEnvironment } from "./userEnvironment.js";
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
 * The library and everything it brings, counted as installed packages: itself, rxjs (its peer)
 * and tslib, cross-fetch and node-fetch's chain (whatwg-url, tr46, webidl-conversions), undici.
 * 14 while the command shipped in it (commander, the CSV parsers, iconv-lite and safer-buffer).
 */
const MAX_PACKAGES = 9;
/** The command's package with the library and everything both bring (the library's 9 + 6). */
const MAX_CLI_PACKAGES = 15;
/** A package of the command that the library's install must not bring. */
const CLI_ONLY = /^(spellrun-cli|commander|csv-parse|csv-stringify|iconv-lite)@/;
/** A web server, which neither install may bring. */
const WEB_SERVER = /^(fastify|@fastify\/|pino)/;
const root = path.resolve(__dirname, "..");
const keep = process.argv.includes("--keep");

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...userEnvironment(), npm_config_fund: "false", npm_config_audit: "false" },
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

/** `npm install`s `specs` into a new scratch project, as a user's project installs them. */
function installInScratch(folder: string, specs: string[]): { packages: string[]; log: string } {
  mkdirSync(folder);
  writeFileSync(
    path.join(folder, "package.json"),
    JSON.stringify({ name: "scratch", version: "1.0.0", private: true }, null, 2)
  );
  // This repository's .npmrc (legacy-peer-deps, which npm hands on to child processes) must not
  // change how the peer rxjs is installed.
  const install = spawnSync(
    "npm",
    ["install", "--legacy-peer-deps=false", "--prefer-offline", ...specs],
    {
      cwd: folder,
      encoding: "utf8",
      env: { ...userEnvironment(), npm_config_fund: "false", npm_config_audit: "false" },
    }
  );
  const log = `${install.stdout}${install.stderr}`;
  if (install.status !== 0) throw new Error(`npm install ${specs.join(" ")} failed:\n${log}`);
  return { packages: installedPackages(path.join(folder, "node_modules")), log };
}

/** The package.json inside a tarball. */
function packedManifest(tarball: string): Record<string, unknown> {
  return JSON.parse(
    execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })
  ) as Record<string, unknown>;
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
  // npm pack runs `prepack` (the package's build) and prints the tarball's name last. The
  // command's build compiles against the library's, so the library is packed first.
  const pack = (args: string[]) =>
    run("npm", ["pack", "--silent", "--pack-destination", work, ...args], clone)
      .trim()
      .split("\n")
      .pop() as string;
  const tarball = pack([]);
  check("packed from a fresh clone", existsSync(path.join(work, tarball)), tarball);
  const cliTarball = pack(["--workspace", "cli"]);
  check("the command's package packed", existsSync(path.join(work, cliTarball)), cliTarball);

  const library = packedManifest(path.join(work, tarball));
  const command = packedManifest(path.join(work, cliTarball));
  const developmentFields = (manifest: Record<string, unknown>) =>
    ["scripts", "devDependencies", "workspaces", "overrides"].filter((field) => field in manifest);
  check(
    "packed package.json files carry no scripts or development fields",
    developmentFields(library).length === 0 && developmentFields(command).length === 0,
    `library: ${developmentFields(library).join(", ") || "none"}; command: ${developmentFields(command).join(", ") || "none"}`
  );
  const commandDependency = (command.dependencies as Record<string, string> | undefined)?.spellrun;
  check(
    "the command's package depends on the library by version",
    commandDependency === `^${String(library.version)}` && !("bin" in library),
    `spellrun ${commandDependency}${"bin" in library ? "; the library has a bin" : ""}`
  );
  // postpack put the repository's package.json files back (strip keeps them aside).
  const changed = run(
    "git",
    ["status", "--porcelain", "--", "package.json", "cli/package.json"],
    clone
  );
  const leftOver = ["package.json.unpacked", "cli/package.json.unpacked"].filter((file) =>
    existsSync(path.join(clone, file))
  );
  check(
    "the package.json files are as committed after packing",
    changed.trim() === "" && leftOver.length === 0,
    `${changed.trim()} ${leftOver.join(" ")}`.trim()
  );

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
  const { packages, log } = installInScratch(scratch, [path.join(work, tarball)]);
  console.log(`packages installed: ${packages.length}\n  ${packages.join("\n  ")}`);
  check(
    `at most ${MAX_PACKAGES} packages installed`,
    packages.length <= MAX_PACKAGES,
    String(packages.length)
  );
  check(
    "none of the command's packages installed with the library",
    !packages.some((name) => CLI_ONLY.test(name)),
    packages.filter((name) => CLI_ONLY.test(name)).join(", ")
  );
  check(
    "no web server installed",
    !packages.some((name) => WEB_SERVER.test(name)),
    packages.filter((name) => WEB_SERVER.test(name)).join(", ")
  );
  check(
    "npm names no install script of the library",
    !/install-scripts.*spellrun@/.test(log),
    log
      .split("\n")
      .filter((line) => line.includes("spellrun@"))
      .join("; ")
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

  nodeCheck(
    "spellrun/client by import and require, the same classes as spellrun",
    scratch,
    [
      "--input-type=module",
      "-e",
      'import * as client from "spellrun/client"; import * as root from "spellrun"; import { createRequire } from "node:module"; const require = createRequire(import.meta.url); const cjs = require("spellrun/client"); const cjsRoot = require("spellrun"); const names = Object.keys(client).filter((name) => name !== "__esModule"); console.log(names.length > 10 && names.every((name) => client[name] === root[name] && cjs[name] === cjsRoot[name]), typeof cjs.SpellClient);',
    ],
    "true function"
  );

  // The types, as a TypeScript user compiles against them: ESM and CommonJS files under
  // nodenext, and a bundler project.
  const typed = `import { SpellClient, type SpellClientOptions, type RunSnapshot } from "spellrun";
import { proxyFromEnvironment } from "spellrun/node";
import { isSpellError, SpellClient as LeanClient } from "spellrun/client";
const options: SpellClientOptions = { apiKey: "k", baseUrl: "https://a.example", pollBaseUrl: "https://b.example", ...proxyFromEnvironment({}) };
const client: SpellClient = new SpellClient(options);
export const snapshot: ((s: RunSnapshot) => string) = (s) => s.state;
export const lean: LeanClient = client;
export const recognised = (error: unknown): string => (isSpellError(error) ? error.message : "");
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
  // No default export: under nodenext a default import must not compile (it would crash at run
  // time), from an ES module and from CommonJS, where esModuleInterop would otherwise let it.
  // One tsc for both files: it reports each file's errors.
  const defaultImports = ["defaultImport.mts", "defaultImport.cts"];
  for (const file of defaultImports) {
    writeFileSync(
      path.join(scratch, file),
      'import spellrun from "spellrun";\nexport const client = new spellrun.SpellClient({ apiKey: "k", baseUrl: "https://a.example", pollBaseUrl: "https://b.example" });\n'
    );
  }
  const defaultImport = spawnSync(
    process.execPath,
    [
      tsc,
      ...common,
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--esModuleInterop",
      ...defaultImports,
    ],
    { cwd: scratch, encoding: "utf8" }
  );
  for (const file of defaultImports) {
    const error = defaultImport.stdout
      .split("\n")
      .find((line) => line.startsWith(`${file}(1,8): error TS1192`));
    check(
      `a default import of spellrun fails to compile under nodenext (${file})`,
      defaultImport.status !== 0 && error !== undefined,
      error ?? `no "no default export" error: ${defaultImport.stdout.trim() || "compiled"}`
    );
  }
  nodeCheck("types under bundler resolution", scratch, [
    tsc,
    ...common,
    "--module",
    "esnext",
    "--moduleResolution",
    "bundler",
    "bundled.ts",
  ]);

  check(
    "the library has no spellrun command",
    !existsSync(path.join(scratch, "node_modules", ".bin", "spellrun"))
  );

  // The command: its tarball beside the library's (which is not on the registry either).
  const cliScratch = path.join(work, "cli-scratch");
  const cli = installInScratch(cliScratch, [
    path.join(work, tarball),
    path.join(work, cliTarball),
  ]).packages;
  console.log(`packages installed with the command: ${cli.length}\n  ${cli.join("\n  ")}`);
  check(
    `at most ${MAX_CLI_PACKAGES} packages installed with the command`,
    cli.length <= MAX_CLI_PACKAGES,
    String(cli.length)
  );
  check(
    "no web server installed with the command",
    !cli.some((name) => WEB_SERVER.test(name)),
    cli.filter((name) => WEB_SERVER.test(name)).join(", ")
  );
  const bin = path.join(cliScratch, "node_modules", ".bin", "spellrun");
  nodeCheck(
    "spellrun --version",
    cliScratch,
    [bin, "--version"],
    `spellrun ${String(command.version)}`
  );
  nodeCheck("spellrun --help", cliScratch, [bin, "--help"], "Usage: spellrun");
  const help = spawnSync(process.execPath, [bin, "--help"], { cwd: cliScratch, encoding: "utf8" });
  check(
    "spellrun --help offers no emulator where it is not installed",
    help.status === 0 && !help.stdout.includes("emulator"),
    help.stdout
      .split("\n")
      .filter((line) => line.includes("emulator"))
      .join("; ")
  );
  const emulator = spawnSync(process.execPath, [bin, "emulator"], {
    cwd: cliScratch,
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
