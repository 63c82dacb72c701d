import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli } from "./support/spawnCli.js";
import { readCsv, tempDir, type TempDir } from "./support/tables.js";

describe("spellrun bulk with empty rows", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  // Rows 1 and 5 have every cell empty (a spreadsheet export's ",,"), row 3 only spaces; row 2
  // fails ("ms" is no number). Blank lines are no rows at all.
  const INPUT = "id,ms\n0,10\n,\n1,x\n  , \n\n2,10\n,\n";

  it("should start no run for a row whose inputs are all empty, and write it skipped in its place", async () => {
    const input = temp.write("in.csv", INPUT);
    const output = temp.file("out.csv");
    const env = cliEnv(fixture.emulator);
    delete env.SPELL_API_KEY;
    const dry = await runCli(["bulk", "sleep", input, "--dry-run"], env);
    expect(dry.stdout).toContain(
      '6 rows would start 3 runs of "sleep" in 1 bulk run of up to 500 (3 empty rows skipped, no run)'
    );

    const bulk = await runCli(
      ["bulk", "sleep", input, "-o", output, "--chunk-size", "2"],
      cliEnv(fixture.emulator)
    );
    expect(bulk.stderr).toContain("done, 6 rows in");
    expect(bulk.stderr).toContain("(3 skipped: empty rows, no run started)");
    expect(bulk.code).toBe(1);
    const written = readCsv(temp.read("out.csv"));
    expect(written.map((row) => [row.id, row.status, row.error])).toEqual([
      ["0", "success", ""],
      ["", "skipped", "empty row"],
      ["1", "failure", jasmine.any(String) as unknown as string],
      ["  ", "skipped", "empty row"],
      ["2", "success", ""],
      ["", "skipped", "empty row"],
    ]);
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(3);

    const status = await runCli(["status", `${output}.journal`], env);
    expect(status.stdout).toContain("skipped 3");
    expect(status.stdout).not.toContain("unknown");
    expect(status.stdout).toContain("next       ");

    // The retry runs the failed row alone: a skipped row is never sent again.
    fixture.emulator.resetStats();
    const retry = await runCli(["retry", `${output}.journal`, "-q"], cliEnv(fixture.emulator));
    expect(retry.code).toBe(1);
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(1);
    const again = readCsv(temp.read("out.csv"));
    expect(again.map((row) => row.status)).toEqual([
      "success",
      "skipped",
      "failure",
      "skipped",
      "success",
      "skipped",
    ]);
  }, 60_000);

  it("should exit 0 when every row succeeded or was skipped as empty", async () => {
    const input = temp.write("in.csv", "id,ms\n0,10\n,\n");
    const output = temp.file("out.csv");
    const bulk = await runCli(
      ["bulk", "sleep", input, "-o", output, "-q"],
      cliEnv(fixture.emulator)
    );
    expect(bulk.code).toBe(0);
    const status = await runCli(["status", `${output}.journal`], cliEnv(fixture.emulator));
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("statuses   success 1, skipped 1");
    expect(status.stdout).toContain("1 submitted in 1 bulk run of up to 500");
  }, 60_000);
});
