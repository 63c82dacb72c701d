import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { CliResult } from "./spawnCli.js";
import { REPO_ROOT } from "./spawnCli.js";

let shimFolder: string | undefined;

/** A folder holding a `spellrun` that runs this repository's sources, for PATH. */
function spellrunOnPath(): string {
  if (shimFolder) return shimFolder;
  shimFolder = mkdtempSync(path.join(tmpdir(), "spellrun-bin-"));
  const loader = path.join(REPO_ROOT, "node_modules", "tsx", "dist", "loader.mjs");
  const shim = path.join(shimFolder, "spellrun");
  writeFileSync(
    shim,
    `#!/bin/sh\nTSX_TSCONFIG_PATH='${REPO_ROOT}/tsconfig.json' exec '${process.execPath}' --import '${loader}' '${REPO_ROOT}/cli/main.ts' "$@"\n`
  );
  chmodSync(shim, 0o755);
  return shimFolder;
}

/**
 * The command a message printed after `marker` (to the end of its line), such as the `spellrun
 * resume …` after "resume with: ". A trailing parenthesis of explanation is not part of it.
 */
export function printedCommand(text: string, marker: string): string {
  const start = text.indexOf(marker);
  if (start < 0) throw new Error(`No "${marker}" in:\n${text}`);
  const line = text.slice(start + marker.length).split("\n")[0];
  return line.replace(/ \([^()]*\)$/, "").trim();
}

/**
 * Runs a printed command exactly as printed, through `sh -c`, with `spellrun` on the PATH (this
 * repository's sources), from `cwd`, stdin from `stdin` when given.
 */
export function runPrinted(
  command: string,
  env: NodeJS.ProcessEnv,
  options: { cwd?: string; stdin?: string } = {}
): Promise<CliResult> {
  const child = spawn("sh", ["-c", command], {
    cwd: options.cwd ?? tmpdir(),
    env: { ...env, PATH: `${spellrunOnPath()}:${env.PATH ?? ""}` },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.stdin ?? "");
  return new Promise((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
