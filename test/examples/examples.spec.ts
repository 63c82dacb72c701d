import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";

const root = join(__dirname, "..", "..");

/** Runs one example with tsx, pointed at the emulator through the documented variables. */
function runExample(
  file: string,
  emulator: RunningEmulator
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(root, "examples", file)], {
      cwd: root,
      env: {
        ...process.env,
        SPELL_BASE_URL: emulator.baseUrl,
        SPELL_POLL_BASE_URL: emulator.pollBaseUrl,
        SPELL_API_KEY: emulator.apiKey,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("examples/ (run as written against the emulator)", () => {
  let emulator: RunningEmulator;
  // Each example starts its own Node process with tsx.
  const timeoutMs = 60_000;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.2 });
  });
  afterAll(() => emulator.close());

  it(
    "should run runOneSpell.ts: wait mode, polling mode, a failing run",
    async () => {
      const { code, stdout, stderr } = await runExample("runOneSpell.ts", emulator);
      expect(stderr).not.toMatch(/error/i);
      expect(code).toBe(0);
      expect(stdout).toContain("summary: Spells are stored AI workflows.");
      expect(stdout).toMatch(/sentiment: positive run \S+/);
      expect(stdout).toContain("failed as expected: failure");
    },
    timeoutMs
  );

  it(
    "should run bulkWithResume.ts: one bulk, resumed from its token, rows in input order",
    async () => {
      const bulkStartsBefore = emulator.stats.requests.bulkStart ?? 0;
      const { code, stdout, stderr } = await runExample("bulkWithResume.ts", emulator);
      expect(stderr).not.toMatch(/error/i);
      expect(code).toBe(0);
      expect(stdout).toContain("progress: 5/5");
      expect(stdout).toContain(
        "I love it → positive\nThis is terrible → negative\nIt is a chair → neutral"
      );
      expect((emulator.stats.requests.bulkStart ?? 0) - bulkStartsBefore).toBe(1);
      expect(emulator.stats.requests.cancelBulk ?? 0).toBe(0);
    },
    timeoutMs
  );

  it(
    "should run withoutRxjs.ts: promise helpers",
    async () => {
      const { code, stdout, stderr } = await runExample("withoutRxjs.ts", emulator);
      expect(stderr).not.toMatch(/error/i);
      expect(code).toBe(0);
      expect(stdout).toContain("translation: hola mundo");
      expect(stdout).toContain("echoed: 1, 2, 3");
      expect(stdout).toContain("slept: 1500");
    },
    timeoutMs
  );

  it("should show every example in docs/library.md exactly as in its file", () => {
    const library = readFileSync(join(root, "docs", "library.md"), "utf8");
    for (const file of ["runOneSpell.ts", "bulkWithResume.ts", "withoutRxjs.ts"]) {
      const source = readFileSync(join(root, "examples", file), "utf8");
      expect(library).toContain(`[examples/${file}](../examples/${file})`);
      expect(library).toContain("```ts\n" + source + "```");
    }
  });

  it("should show the README's TypeScript quick start exactly as in its file", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const source = readFileSync(join(root, "examples", "runOneSpell.ts"), "utf8");
    expect(readme).toContain("[examples/runOneSpell.ts](examples/runOneSpell.ts)");
    expect(readme).toContain("```ts\n" + source + "```");
  });
});
