import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { RunningEmulator } from "../../../emulator/startEmulator.js";

/** The repository root: the CLI runs from there so tsx finds tsconfig.json (its `spellrun` path). */
export const REPO_ROOT = path.resolve(__dirname, "..", "..", "..");

/** What a finished CLI process left behind. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A CLI process still running, with its output so far. */
export interface RunningCli {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  exited: Promise<CliResult>;
}

/**
 * The environment of a CLI talking to an emulator: its addresses and key in the variables the
 * CLI reads, nothing else from the spec's own environment but PATH.
 */
export function cliEnv(
  emulator: RunningEmulator,
  extra: Record<string, string> = {}
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    SPELL_API_KEY: emulator.apiKey,
    SPELL_BASE_URL: emulator.baseUrl,
    SPELL_POLL_BASE_URL: emulator.pollBaseUrl,
    ...extra,
  };
}

/** Starts `spellrun <args>` from the TypeScript sources (tsx), as a child process. */
export function startCli(args: string[], env: NodeJS.ProcessEnv, stdin?: string): RunningCli {
  const child = spawn(process.execPath, ["--import", "tsx", "cli/main.ts", ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin?.end(stdin ?? "");
  const exited = new Promise<CliResult>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, output: () => ({ stdout, stderr }), exited };
}

/** Runs `spellrun <args>` to its end. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, stdin?: string): Promise<CliResult> {
  return startCli(args, env, stdin).exited;
}

/** Resolves once `check()` is true, polling every 20 ms; rejects after `timeoutMs`. */
export async function waitFor(
  check: () => boolean,
  timeoutMs = 20_000,
  what = "condition"
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
