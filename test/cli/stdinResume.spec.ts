import { readFileSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli } from "./support/spawnCli.js";
import { csvText, readCsv, tempDir, type TempDir } from "./support/tables.js";

describe("spellrun resume of a job that read its rows from stdin", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  const rowsText = (count: number) =>
    csvText(
      ["text"],
      Array.from({ length: count }, (_, i) => [`row ${i}`])
    );

  it("should refuse an empty or short stdin instead of ending the job, and go on with the same rows", async () => {
    const output = temp.file("out.csv");
    const journal = `${output}.journal`;
    const env = cliEnv(fixture.emulator);
    // The budget stops the job after two bulk runs of 5: rows 0-9 sent, 10-11 not.
    const stopped = await runCli(
      ["bulk", "echo", "-", "-o", output, "--max-runs", "10", "--chunk-size", "5", "-q"],
      env,
      rowsText(12)
    );
    expect(stopped.code).toBe(2);

    for (const stdin of ["", "text\n", rowsText(7)]) {
      const refused = await runCli(["resume", journal, "-q"], env, stdin);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("this job already sent 10");
      const status = await runCli(["status", journal], env);
      expect(status.code).toBe(1);
      expect(status.stdout).not.toContain("state      complete");
    }
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(10);

    const resumed = await runCli(["resume", journal, "-q"], env, rowsText(12));
    expect(resumed.code).toBe(0);
    expect(readCsv(readFileSync(output, "utf8")).map((row) => row.text)).toEqual(
      Array.from({ length: 12 }, (_, i) => `row ${i}`)
    );
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(12);
    expect(Object.values(fixture.emulator.stats.bulkCreatedByKey).every((n) => n === 1)).toBeTrue();
  }, 60_000);

  it("should refuse a stdin that ends before the row past the budget of a job stopped at it", async () => {
    const env = cliEnv(fixture.emulator);
    // Chunk 1: row 0 sent, row 1 read past the budget. Chunk 2: no row sent (the window would
    // cross the budget), rows 0 and 1 read. Either way stdin had 2 rows or more.
    for (const chunk of ["1", "2"]) {
      fixture.emulator.resetStats();
      const output = temp.file(`out${chunk}.csv`);
      const journal = `${output}.journal`;
      const stopped = await runCli(
        ["bulk", "echo", "-", "-o", output, "--max-runs", "1", "--chunk-size", chunk, "-q"],
        env,
        rowsText(2)
      );
      expect(stopped.code).toBe(2);
      const sent = chunk === "1" ? 1 : 0;
      expect(fixture.emulator.stats.bulkRunsCreated).toBe(sent);

      // Taken as the end, one row would mark the job complete without row 1.
      const short = await runCli(["resume", journal, "-q"], env, rowsText(1));
      expect(short.code).toBe(2);
      expect(short.stderr).toContain("stopped at its --max-runs with more than 1 rows");
      expect(short.stderr).toContain("Pipe the same rows in again");
      const status = await runCli(["status", journal], env);
      expect(status.stdout).not.toContain("state      complete");
      expect(fixture.emulator.stats.bulkRunsCreated).toBe(sent);

      const resumed = await runCli(["resume", journal, "-q"], env, rowsText(2));
      expect(resumed.code).toBe(0);
      expect(readCsv(readFileSync(output, "utf8")).map((row) => row.text)).toEqual([
        "row 0",
        "row 1",
      ]);
      expect(fixture.emulator.stats.bulkRunsCreated).toBe(2);
      expect(
        Object.values(fixture.emulator.stats.bulkCreatedByKey).every((n) => n === 1)
      ).toBeTrue();
    }
  }, 60_000);

  it("should name the --max-runs its stdin needs when a resume is over budget", async () => {
    const output = temp.file("out.csv");
    const journal = `${output}.journal`;
    const env = cliEnv(fixture.emulator);
    const stopped = await runCli(
      ["bulk", "echo", "-", "-o", output, "--max-runs", "10", "--chunk-size", "5", "-q"],
      env,
      rowsText(30)
    );
    expect(stopped.code).toBe(2);
    // resume reads stdin whole first: it knows that 20 rows are not sent yet.
    const over = await runCli(["resume", journal, "--max-runs", "5", "-q"], env, rowsText(30));
    expect(over.code).toBe(2);
    expect(over.stderr).toContain("stdin has 20 rows not sent yet, more than --max-runs 5");
    expect(over.stderr).toContain("Pass --max-runs 20 to allow it");
    expect(over.stderr).not.toContain("<n>");
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(15);
  }, 60_000);
});
