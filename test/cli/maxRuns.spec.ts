import { existsSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli } from "./support/spawnCli.js";
import { csvText, readCsv, tempDir, type TempDir } from "./support/tables.js";

describe("spellrun bulk --max-runs", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  const rows = (count: number) => Array.from({ length: count }, (_, i) => [`row ${i}`]);
  const sent = () =>
    Object.values(fixture.emulator.stats.requests).reduce((sum, count) => sum + count, 0);

  it("should refuse a file of more rows than --max-runs before anything is sent or written", async () => {
    const input = temp.write("in.csv", csvText(["text"], rows(30)));
    const result = await runCli(
      ["bulk", "echo", input, "--max-runs", "29", "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("30 rows would start 30 runs, more than --max-runs 29");
    expect(result.stderr).toContain("--max-runs 30");
    expect(sent()).toBe(0);
    expect(existsSync(temp.file("in.out.csv"))).toBeFalse();
    expect(existsSync(temp.file("in.out.csv.journal"))).toBeFalse();
  }, 30_000);

  it("should refuse more than 1,000 rows by default, and run them when the flag allows it", async () => {
    const input = temp.write("in.csv", csvText(["text"], rows(1001)));
    const refused = await runCli(["bulk", "echo", input, "--quiet"], cliEnv(fixture.emulator));
    expect(refused.code).toBe(2);
    expect(sent()).toBe(0);

    const allowed = await runCli(
      ["bulk", "echo", input, "--max-runs", "1001", "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(allowed.code).toBe(0);
    expect(readCsv(temp.read("in.out.csv")).length).toBe(1001);
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(1001);
  }, 60_000);

  it("should never start a row of stdin beyond --max-runs", async () => {
    const result = await runCli(
      ["bulk", "echo", "-", "-o", temp.file("out.csv"), "--max-runs", "10", "--chunk-size", "5"],
      cliEnv(fixture.emulator),
      csvText(["text"], rows(12))
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("stdin has more than 10 rows");
    expect(fixture.emulator.stats.bulkRunsCreated).toBeLessThanOrEqual(10);
  }, 30_000);

  it("should report a stop at the budget from stdin as the budget's, not as a bad input", async () => {
    const output = temp.file("out.csv");
    const result = await runCli(
      ["bulk", "echo", "-", "-o", output, "--max-runs", "10", "--chunk-size", "5", "-q"],
      cliEnv(fixture.emulator),
      csvText(["text"], rows(12))
    );
    // Exit 2, "over --max-runs" in the exit-code table; never 3 or the words of a bad input.
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("spellrun: stopped at the budget: stdin has more than 10 rows");
    expect(result.stderr).toContain("10 rows written;");
    expect(result.stderr).toContain(`go on with: spellrun resume ${output}.journal`);
    expect(result.stderr).not.toContain("is not complete");
    expect(result.stderr).not.toContain("the output holds the first");
    const status = await runCli(["status", `${output}.journal`], cliEnv(fixture.emulator));
    expect(status.stdout).toContain("state      stopped at the budget (--max-runs)");
    expect(status.stdout).not.toContain("input-error");
  }, 30_000);
});
