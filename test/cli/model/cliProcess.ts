import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunningEmulator } from "../../../emulator/startEmulator.js";
import { REPO_ROOT } from "../support/spawnCli.js";

/** How a CLI process ended, and what it printed. */
export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** What a pseudo-terminal showed (stdout and stderr together), when run on one. */
  terminal?: string;
}

/** A CLI process on its way. */
export interface StartedProcess {
  child: ChildProcess;
  exited: Promise<ProcessResult>;
  /** The id of the `spellrun` process itself (under `script` it is a descendant). */
  cliPid(): number | undefined;
  /** Types Ctrl-C (on a pseudo-terminal) or sends SIGINT. */
  ctrlC(): void;
}

/**
 * Where `spellrun` comes from in the model suite: a `spellrun` executable on PATH (a shell shim
 * running the sources under tsx from any folder), so a command the CLI prints as a next step
 * runs exactly as printed (`sh -c`).
 */
export interface CliLauncher {
  bin: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Writes the `spellrun` shim into a new temporary bin folder.
 * @param emulator the service the commands talk to
 * @return the launcher
 */
export function createLauncher(emulator: RunningEmulator): CliLauncher {
  const binDir = mkdtempSync(path.join(tmpdir(), "spellrun-model-bin-"));
  mkdirSync(binDir, { recursive: true });
  const bin = path.join(binDir, "spellrun");
  const loader = path.join(REPO_ROOT, "node_modules", "tsx", "dist", "loader.mjs");
  writeFileSync(
    bin,
    `#!/bin/sh\nexec "${process.execPath}" --import "${loader}" "${path.join(REPO_ROOT, "cli", "main.ts")}" "$@"\n`
  );
  chmodSync(bin, 0o755);
  return {
    bin,
    env: {
      PATH: `${binDir}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      TSX_TSCONFIG_PATH: path.join(REPO_ROOT, "tsconfig.json"),
      SPELL_API_KEY: emulator.apiKey,
      SPELL_BASE_URL: emulator.baseUrl,
      SPELL_POLL_BASE_URL: emulator.pollBaseUrl,
      TERM: "xterm",
    },
  };
}

function quote(word: string): string {
  return /^[\w./=,:-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * Starts `spellrun <args>` (or a shell command line, `shell`) in `cwd`.
 * @param launcher the launcher
 * @param run what to run: `args` of spellrun, or a `shell` text; `stdin` bytes; `tty` on a pseudo-terminal (script(1))
 * @return the process
 */
export function startProcess(
  launcher: CliLauncher,
  run: { args?: string[]; shell?: string; cwd: string; stdin?: Buffer; tty?: boolean }
): StartedProcess {
  const commandLine = run.shell ?? ["spellrun", ...(run.args ?? []).map(quote)].join(" ");
  const child = run.tty
    ? spawn("script", ["-qfec", commandLine, "/dev/null"], {
        cwd: run.cwd,
        env: launcher.env,
        stdio: ["pipe", "pipe", "pipe"],
      })
    : run.shell !== undefined
      ? spawn("sh", ["-c", commandLine], { cwd: run.cwd, env: launcher.env, stdio: "pipe" })
      : spawn(launcher.bin, run.args ?? [], { cwd: run.cwd, env: launcher.env, stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin?.on("error", () => undefined);
  let spawnError: Error | undefined;
  if (!run.tty) child.stdin?.end(run.stdin ?? Buffer.alloc(0));
  const exited = new Promise<ProcessResult>((resolve) => {
    // A process that could not start ends here (its "close" may never come).
    child.on("error", (error) => {
      spawnError = error;
      if (child.pid === undefined)
        resolve({ code: 127, signal: null, stdout, stderr: error.message });
    });
    child.on("close", (code, signal) =>
      resolve(
        spawnError
          ? { code, signal, stdout, stderr: `${stderr}\n${spawnError.message}` }
          : run.tty
            ? { code, signal, stdout: "", stderr: stdout + stderr, terminal: stdout }
            : { code, signal, stdout, stderr }
      )
    );
  });
  const cliPid = (): number | undefined => {
    if (!run.tty && run.shell === undefined) return child.pid;
    return deepestDescendant(child.pid);
  };
  return {
    child,
    exited,
    cliPid,
    ctrlC: () => {
      if (run.tty) child.stdin?.write("\u0003");
      else {
        const pid = cliPid();
        if (pid !== undefined) signal(pid, "SIGINT");
      }
    },
  };
}

/** The last process of the chain of children below `pid` (script → sh → node). */
function deepestDescendant(pid: number | undefined): number | undefined {
  let current = pid;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    let children: string;
    try {
      children = execFileSync("pgrep", ["-P", String(current)], { encoding: "utf8" });
    } catch {
      return depth === 0 ? undefined : current;
    }
    const next = Number(children.trim().split("\n")[0]);
    if (!Number.isInteger(next) || next <= 0) return current;
    current = next;
  }
  return current;
}

/**
 * Sends a signal, ignoring a process that has already gone.
 * @param pid the process
 * @param name the signal
 */
export function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}
