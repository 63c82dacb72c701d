import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { httpRequest } from "./support/emulatorHttp.js";

interface Child {
  stdout: string;
  stderr: string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
  /** Resolves once stdout contains `text`. */
  waitFor(text: string): Promise<void>;
}

const root = fileURLToPath(new URL("../../", import.meta.url));

function run(script: string, args: string[] = [], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  const state = { stdout: "", stderr: "" };
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout.on("data", (chunk: Buffer) => {
    state.stdout += chunk.toString();
    for (const waiter of waiters) if (state.stdout.includes(waiter.text)) waiter.resolve();
  });
  child.stderr.on("data", (chunk: Buffer) => (state.stderr += chunk.toString()));
  // Bounded: no child outlives its spec.
  const guard = setTimeout(() => child.kill("SIGKILL"), 25_000);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal });
    })
  );
  return {
    get stdout() {
      return state.stdout;
    },
    get stderr() {
      return state.stderr;
    },
    exit,
    kill: (signal) => child.kill(signal),
    waitFor: (text) =>
      new Promise((resolve, reject) => {
        if (state.stdout.includes(text)) return resolve();
        waiters.push({ text, resolve });
        void exit.then(() => reject(new Error(`exited before "${text}": ${state.stderr}`)));
      }),
  };
}

describe("emulator lifecycle", () => {
  // Child processes start tsx, which takes seconds on a loaded machine.
  const childTimeoutMs = 30_000;

  it(
    "should let the process exit by itself after close(), held requests ended",
    async () => {
      const child = run("test/emulator/support/closeFixture.ts");
      const { code, signal } = await child.exit;
      expect(signal).toBeNull();
      expect(code).withContext(child.stderr).toBe(0);
      expect(child.stdout).toContain("closed");
      expect(child.stdout).toMatch(/held request (answered 503|dropped)/);
    },
    childTimeoutMs
  );

  it(
    "should run the CLI: print URLs and key, serve, stop on SIGTERM",
    async () => {
      const child = run(
        "emulator/cli.ts",
        ["--port", "0", "--poll-port", "0", "--time-scale", "0.01"],
        {
          SPELL_EMULATOR_API_KEY: "cli-key",
        }
      );
      await child.waitFor("Ctrl+C");
      const baseUrl = /base URL\s+(\S+)/.exec(child.stdout)?.[1] as string;
      const pollBaseUrl = /poll URL\s+(\S+)/.exec(child.stdout)?.[1] as string;
      expect(child.stdout).toContain("API key   cli-key");
      const waited = await httpRequest(`${baseUrl}/spells/start`, {
        headers: { "x-api-key": "cli-key" },
        body: { spellId: "echo", wait: "true", inputs: { hello: "world" } },
      });
      expect(waited.body).toEqual({ outputs: { hello: "world" } });
      const polled = await httpRequest(`${pollBaseUrl}/spells/getRun?runId=nope`, {
        method: "GET",
        headers: { "x-api-key": "cli-key" },
      });
      expect(polled.status).toBe(404);
      child.kill("SIGTERM");
      const { code } = await child.exit;
      expect(code).toBe(0);
      expect(child.stdout).toContain("SIGTERM: stopping the emulator");
    },
    childTimeoutMs
  );

  it(
    "should print --help and exit 0, and exit 2 on a bad flag value",
    async () => {
      const help = run("emulator/cli.ts", ["--help"]);
      expect((await help.exit).code).toBe(0);
      expect(help.stdout).toContain("--rate-429");
      expect(help.stdout).toContain("SPELL_EMULATOR_POLL_PORT");
      const bad = run("emulator/cli.ts", ["--drop-rate", "1.5"]);
      expect((await bad.exit).code).toBe(2);
      expect(bad.stderr).toContain("--drop-rate must be a number in 0..1");
    },
    childTimeoutMs
  );
});
