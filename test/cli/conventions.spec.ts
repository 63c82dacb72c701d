import { spawn } from "node:child_process";
import { letterColumnName } from "../../cli/table/InputReading.js";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, REPO_ROOT, runCli } from "./support/spawnCli.js";
import { readCsv, tempDir, type TempDir } from "./support/tables.js";

/** Runs `spellrun <args>` with stdout a pipe whose reader has already gone (`| true`). */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "cli/main.ts", ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

describe("spellrun follows its peers' conventions", () => {
  it("should print its name and version with --version (GNU style)", async () => {
    const result = await runCli(["--version"], { PATH: process.env.PATH });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("spellrun 0.1.0\n");
  }, 30_000);

  it("should exit 0 quietly when the reader of --help, help or --version has gone", async () => {
    for (const args of [["--help"], ["help", "bulk"], ["bulk", "--help"], ["--version"]]) {
      const result = await withClosedStdout(args);
      expect(result.code).withContext(args.join(" ")).toBe(0);
      expect(result.stderr).withContext(args.join(" ")).toBe("");
    }
  }, 60_000);
});

describe("spellrun bulk reads csvkit's delimiter and header flags", () => {
  const fixture = useEmulator({ timeScale: 0.02 });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  it("should read a ;-separated file with --delimiter ';', and say so when the flag is missing", async () => {
    const input = temp.write("eu.csv", "id;amount;text\n1;-3,5;a, b\n2;4;c\n");
    const missing = await runCli(["bulk", "echo", input, "--quiet"], cliEnv(fixture.emulator));
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('pass --delimiter ";"');
    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);

    const read = await runCli(
      ["bulk", "echo", input, "--quiet", "--delimiter", ";"],
      cliEnv(fixture.emulator)
    );
    expect(read.code).toBe(0);
    const rows = readCsv(temp.read("eu.out.csv"));
    expect(rows.map((row) => [row.id, row.amount, row.text, row.text_output])).toEqual([
      ["1", "-3,5", "a, b", "a, b"],
      ["2", "4", "c", "c"],
    ]);
  }, 30_000);

  it("should name the columns a, b, c… with --no-header-row and run every line", async () => {
    const input = temp.write("bare.csv", "hello,1\nworld,2\n");
    const result = await runCli(
      ["bulk", "echo", input, "--quiet", "--no-header-row", "--map", "a=text", "--only", "a"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(0);
    const text = temp.read("bare.out.csv");
    expect(text.split("\n")[0]).toBe("a,b,status,text,error,other_outputs");
    expect(readCsv(text).map((row) => [row.a, row.b, row.text])).toEqual([
      ["hello", "1", "hello"],
      ["world", "2", "world"],
    ]);
    expect(letterColumnName(26)).toBe("aa");
    expect(letterColumnName(53)).toBe("bbb");
  }, 30_000);

  it("should refuse CSV-only flags for JSONL input", async () => {
    const input = temp.write("in.jsonl", '{"a":1}\n');
    const result = await runCli(
      ["bulk", "echo", input, "--delimiter", ";", "--dry-run"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--delimiter is for CSV and TSV input");
  }, 30_000);
});
