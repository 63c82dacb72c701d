import { writeFileSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli, startCli, waitFor } from "./support/spawnCli.js";
import { tempDir } from "./support/tables.js";

const API_KEY = "sk-cli-spec-7f3a9c";

describe("spellrun run", () => {
  const fixture = useEmulator({ timeScale: 0.02, apiKey: API_KEY });

  it("should print the outputs of a wait-mode run as JSON and exit 0", async () => {
    const result = await runCli(
      ["run", "summarize", "--input", '{"text":"Spells run workflows. They are stored."}'],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ summary: "Spells run workflows.", words: 6 });
    expect(result.stdout + result.stderr).not.toContain(API_KEY);
  }, 30_000);

  it("should poll with --poll and print one named output as plain text", async () => {
    fixture.emulator.resetStats();
    const result = await runCli(
      ["run", "summarize", "--poll", "--input", '{"text":"One. Two."}', "--output", "summary"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("One.\n");
    expect(fixture.emulator.stats.requests.getRun).toBeGreaterThan(0);
  }, 30_000);

  it("should exit 1 and print the outputs when the run fails", async () => {
    const result = await runCli(["run", "always-fails", "--input", "{}"], cliEnv(fixture.emulator));
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ reason: "This demo spell always fails" });
    expect(result.stderr).toContain('"failure"');
  }, 30_000);

  it("should read the key from --api-key-file and never print it on a 401", async () => {
    const temp = tempDir();
    try {
      const keyFile = temp.write("key", "sk-wrong-key-4242\n");
      const env = cliEnv(fixture.emulator);
      delete env.SPELL_API_KEY;
      const result = await runCli(["run", "echo", "--input", "{}", "--api-key-file", keyFile], env);
      expect(result.code).toBe(4);
      expect(result.stderr).toContain("401");
      expect(result.stdout + result.stderr).not.toContain("sk-wrong-key-4242");
    } finally {
      temp.remove();
    }
  }, 30_000);

  it("should refuse a key on the command line without echoing it (exit 2)", async () => {
    const result = await runCli(
      ["run", "echo", "--input", "{}", "--api-key", "sk-typed-9999"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("SPELL_API_KEY");
    expect(result.stdout + result.stderr).not.toContain("sk-typed-9999");
  }, 30_000);

  it("should exit 2 with a clear message when there is no key", async () => {
    const env = cliEnv(fixture.emulator);
    delete env.SPELL_API_KEY;
    const result = await runCli(["run", "echo", "--input", "{}"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("No API key");
  }, 30_000);

  it("should refuse a run without --input (exit 2): no paid run with inputs nobody chose", async () => {
    fixture.emulator.resetStats();
    const result = await runCli(["run", "echo"], cliEnv(fixture.emulator));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--input '{}'");
    expect(result.stderr).toContain("nothing was started");
    expect(fixture.emulator.stats.requests.start ?? 0).toBe(0);
    const explicit = await runCli(["run", "echo", "--input", "{}"], cliEnv(fixture.emulator));
    expect(explicit.code).toBe(0);
    expect(JSON.parse(explicit.stdout)).toEqual({});
  }, 30_000);

  it("should refuse an --output the run does not have, naming its outputs, and keep them (exit 2)", async () => {
    const result = await runCli(
      ["run", "summarize", "--input", '{"text":"One. Two."}', "--output", "nope"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--output "nope": no such output of this run');
    expect(result.stderr).toContain("its outputs: summary, words");
    expect(JSON.parse(result.stdout)).toEqual({ summary: "One.", words: 2 });
  }, 30_000);

  it("should read an --input-file with a BOM, and refuse one that is not UTF-8 naming its byte", async () => {
    const temp = tempDir();
    try {
      const withBom = temp.write("inputs.json", '\uFEFF{"text":"One. Two."}');
      const read = await runCli(
        ["run", "summarize", "--input-file", withBom, "--output", "summary"],
        cliEnv(fixture.emulator)
      );
      expect(read.code).toBe(0);
      expect(read.stdout).toBe("One.\n");
      const latin = temp.file("latin.json");
      writeFileSync(latin, Buffer.from('{"text":"caf\xe9"}', "latin1"));
      fixture.emulator.resetStats();
      const refused = await runCli(
        ["run", "echo", "--input-file", latin],
        cliEnv(fixture.emulator)
      );
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain(`${latin} line 1: byte 0xE9`);
      expect(fixture.emulator.stats.requests.start ?? 0).toBe(0);
    } finally {
      temp.remove();
    }
  }, 30_000);

  for (const [signal, code, words, poll] of [
    ["SIGTERM", 143, "SIGTERM received", true],
    ["SIGHUP", 129, "SIGHUP received", false],
  ] as const) {
    it(`should stop waiting on ${signal}, say the run may still finish, and exit ${code}`, async () => {
      fixture.emulator.resetStats();
      // A 10-minute run (scaled): only the signal ends the command.
      const cli = startCli(
        ["run", "sleep", "--input", '{"ms":30000000}', ...(poll ? ["--poll"] : [])],
        cliEnv(fixture.emulator)
      );
      await waitFor(
        () =>
          poll
            ? (fixture.emulator.stats.requests.getRun ?? 0) >= 1
            : (fixture.emulator.stats.requests.start ?? 0) >= 1,
        20_000,
        "the run started"
      );
      cli.child.kill(signal);
      const result = await cli.exited;
      expect(result.signal).toBeNull();
      expect(result.code).toBe(code);
      expect(result.stderr).toContain(`spellrun: ${words}; stopped waiting`);
      expect(result.stderr).toContain("may still finish at the service");
      // Polled, the run's id is known: the command that fetches it is printed.
      if (poll) expect(result.stderr).toMatch(/fetch its outputs with: spellrun get \S+/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }, 30_000);
  }
});
