import { terminalText } from "../../cli/errors/terminalText.js";
import { startScriptedService, type ScriptedService } from "../core/support/scriptedService.js";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO_ROOT, runCli } from "./support/spawnCli.js";

/** Clear the screen, set the window title, a hyperlink, a one-byte CSI, a bell, a carriage return. */
const HOSTILE =
  "bad\u001b[2J\u001b]0;pwned\u0007\u001b]8;;https://evil.example\u001b\\x\u009b31m\rhidden";

/** Whether a text holds a control character other than line feed and tab. */
function hasControl(text: string): boolean {
  return Array.from(text).some((character) => {
    const code = character.codePointAt(0) as number;
    return (
      (code < 0x20 && character !== "\n" && character !== "\t") || (code >= 0x7f && code <= 0x9f)
    );
  });
}

describe("service text printed to a terminal", () => {
  let service: ScriptedService;
  afterEach(() => service?.close());

  const env = () => ({
    ...process.env,
    SPELL_BASE_URL: service.baseUrl,
    SPELL_POLL_BASE_URL: service.pollBaseUrl,
    SPELL_API_KEY: "sk-terminal-spec-1234",
  });

  it("should strip escape sequences from a service's error message", async () => {
    service = await startScriptedService(() => ({ status: 400, body: { message: HOSTILE } }));
    const result = await runCli(["run", "echo", "--input", "{}"], env());
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("bad[2J]0;pwned");
    expect(hasControl(result.stdout + result.stderr)).toBeFalse();
  }, 30_000);

  it("should keep a failed run's outputs exact on a pipe, and without controls on a terminal", async () => {
    service = await startScriptedService(() => ({
      body: { state: "failure", outputs: { error: HOSTILE } },
    }));
    const piped = await runCli(["run", "echo", "--input", "{}"], env());
    expect(piped.code).toBe(1);
    expect((JSON.parse(piped.stdout) as { error: string }).error).toBe(HOSTILE);

    // The same command on a pseudo-terminal (util-linux script), as a user at a shell sees it.
    const command = [
      process.execPath,
      "--import",
      "tsx",
      "cli/main.ts",
      "run",
      "echo",
      "--input",
      "{}",
    ]
      .map((arg) => `'${arg}'`)
      .join(" ");
    // Not spawnSync: the scripted service answers from this process's event loop.
    const child = spawn("script", ["-qec", command, "/dev/null"], { cwd: REPO_ROOT, env: env() });
    let shown = "";
    child.stdout.on("data", (chunk: Buffer) => (shown += chunk.toString()));
    await new Promise((resolve) => child.on("close", resolve));
    expect(shown).toContain("pwned");
    // The terminal itself turns "\n" into "\r\n".
    expect(hasControl(shown.replaceAll("\r\n", "\n"))).toBeFalse();
  }, 30_000);

  it("should keep line feeds and tabs, and remove every other control character", () => {
    expect(terminalText("a\tb\nc")).toBe("a\tb\nc");
    expect(terminalText(HOSTILE)).toBe("bad[2J]0;pwned]8;;https://evil.example\\x31mhidden");
    expect(terminalText("\u202eevil\u2066")).toBe("evil");
  });

  /** Runs `spellrun <args>` on a pseudo-terminal (util-linux script): what a user at a shell sees. */
  async function onTerminal(args: string[], environment: NodeJS.ProcessEnv): Promise<string> {
    const command = [process.execPath, "--import", "tsx", "cli/main.ts", ...args]
      .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
      .join(" ");
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      cwd: REPO_ROOT,
      env: environment,
    });
    let shown = "";
    child.stdout.on("data", (chunk: Buffer) => (shown += chunk.toString()));
    await new Promise((resolve) => child.on("close", resolve));
    return shown;
  }

  /** The sequences of a hostile output: set the window title, clear the screen. */
  const TITLE = "\u001b]0;title\u0007";
  const CLEAR = "\u001b[2J";
  const expectNoSequence = (shown: string) => {
    expect(shown).not.toContain("\u001b]0;");
    expect(shown).not.toContain("\u001b[2J");
    expect(shown).not.toContain("\u0007");
  };

  it("should strip a spell output's window title and clear screen from bulk -o - on a terminal, and keep a pipe exact", async () => {
    service = await startScriptedService((request) =>
      request.endpoint === "bulkStart"
        ? { body: { runId: "g-1" } }
        : {
            body: {
              runs: [
                {
                  runId: "r-1",
                  state: "success",
                  outputs: { reply: `done${TITLE}${CLEAR}here` },
                },
              ],
            },
          }
    );
    const dir = mkdtempSync(path.join(tmpdir(), "spellrun-tty-"));
    try {
      const input = path.join(dir, "in.csv");
      writeFileSync(input, "text\nhi\n");
      const args = ["bulk", "echo", input, "-o", "-", "--quiet"];
      const shown = await onTerminal(args, env());
      expect(shown).toContain("here");
      expectNoSequence(shown);
      const piped = await runCli(args, env());
      expect(piped.code).toBe(0);
      expect(piped.stdout).toContain(`done${TITLE}${CLEAR}here`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it("should strip control characters from --verbose / SPELLRUN_LOG lines, on a terminal or not", async () => {
    let polls = 0;
    service = await startScriptedService((request) => {
      if (request.endpoint === "start") return { body: { runId: "r-1" } };
      polls++;
      return polls === 1
        ? { status: 503, body: { message: `busy${TITLE}${CLEAR}now` } }
        : { body: { state: "success", outputs: { reply: "ok" } } };
    });
    const args = ["run", "echo", "--input", "{}", "--poll", "--verbose"];
    const piped = await runCli(args, { ...env(), SPELLRUN_LOG: "trace" });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toContain("busy]0;title[2Jnow");
    expect(hasControl(piped.stderr)).toBeFalse();
    polls = 0;
    const shown = await onTerminal(args, env());
    expect(shown).toContain("busy");
    expectNoSequence(shown);
  }, 30_000);
});
