import { terminalText } from "../../cli/errors/terminalText.js";
import { startScriptedService, type ScriptedService } from "../core/support/scriptedService.js";
import { spawn } from "node:child_process";
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
});
