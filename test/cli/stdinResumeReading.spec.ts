import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { handJournal } from "./support/handJournal.js";
import { cliEnv, runCli } from "./support/spawnCli.js";
import { readCsv, tempDir, type TempDir } from "./support/tables.js";

/**
 * A job begun with `--delimiter` (or `--no-header-row`, `--encoding`) keeps those in its journal;
 * `resume` and `retry` read the input, stdin included, as the job did. A kill -9 leaves the job
 * unfinished at any moment: before its first bulk run, or with some windows written.
 */
describe("spellrun resume of a stdin job read with --delimiter", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  const rows = (count: number) => Array.from({ length: count }, (_, i) => [`${i}`, `row ${i}`]);
  const semicolons = (count: number, header = true) =>
    [...(header ? [["id", "text"]] : []), ...rows(count)]
      .map((cells) => cells.join(";"))
      .join("\n") + "\n";
  const eachRowOnce = () =>
    Object.values(fixture.emulator.stats.bulkCreatedByKey).every((n) => n === 1);

  it("should resume after a kill that left only the job record (before the first bulk run)", async () => {
    const output = temp.file("out.csv");
    // What `bulk echo - -o out.csv --delimiter ";"` leaves when killed right after its journal.
    const journal = handJournal(
      fixture.emulator,
      { input: "-", output },
      { reading: { delimiter: ";" } }
    );
    temp.write("out.csv", "");
    const env = cliEnv(fixture.emulator);
    const resumed = await runCli(["resume", journal, "-q"], env, semicolons(3));
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(readCsv(readFileSync(output, "utf8")).map((row) => [row.id, row.text])).toEqual(rows(3));
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(3);
    expect(eachRowOnce()).toBeTrue();
  }, 60_000);

  it("should resume after a stop with windows written, each row run once", async () => {
    const output = temp.file("out.csv");
    const journal = `${output}.journal`;
    const env = cliEnv(fixture.emulator);
    // The budget stops the job after two windows: the journal is left as a kill leaves it then.
    const stopped = await runCli(
      ["bulk", "echo", "-", "-o", output, "--max-runs", "4", "--chunk-size", "2"].concat([
        "--delimiter",
        ";",
        "--no-header-row",
        "-q",
      ]),
      env,
      semicolons(6, false)
    );
    expect(stopped.code).toBe(2);
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(4);

    const resumed = await runCli(["resume", journal, "-q"], env, semicolons(6, false));
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(readCsv(readFileSync(output, "utf8")).map((row) => [row.a, row.b])).toEqual(rows(6));
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(6);
    expect(eachRowOnce()).toBeTrue();
  }, 60_000);

  it("should refuse stdin that does not read as the job's, naming stdin and no flag resume lacks", async () => {
    const output = temp.file("out.csv");
    const journal = handJournal(
      fixture.emulator,
      { input: "-", output },
      { reading: { delimiter: ";" } }
    );
    temp.write("out.csv", "");
    const env = cliEnv(fixture.emulator);
    // Comma-separated rows piped to a job that reads ";": one column "id,text", 2 cells a row.
    const commas = "id,text\n0,a;b\n";
    const refused = await runCli(["resume", journal, "-q"], env, commas);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^spellrun: stdin line 2: /);
    expect(refused.stderr).not.toContain(".journal.stdin");
    expect(refused.stderr).toContain('--delimiter ";"');
    expect(refused.stderr).toContain("pipe the job's own rows in again");
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(0);

    // Default reading (","): a ;-separated stdin is not the job's input; resume has no
    // --delimiter, so the message must not tell the user to pass one.
    const plain = handJournal(fixture.emulator, { input: "-", output });
    const wrong = await runCli(["resume", plain, "-q"], env, semicolons(2));
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/^spellrun: stdin line 1: the header is one column/);
    expect(wrong.stderr).not.toContain("pass --delimiter");
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(0);
  }, 60_000);
  it("should say what to do with a journal killed before its job record was whole", async () => {
    const output = temp.write("out.csv", "");
    const journal = `${output}.journal`;
    const env = cliEnv(fixture.emulator);
    for (const torn of ["", '{"type":"job","version":1,"spel']) {
      writeFileSync(journal, torn, { mode: 0o600 });
      const refused = await runCli(["resume", journal, "-q"], env, semicolons(2));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("holds no job record");
      expect(refused.stderr).toContain("before it started any run");
      const again = await runCli(
        ["bulk", "echo", "-", "-o", output, "--delimiter", ";", "-q"],
        env,
        semicolons(2)
      );
      expect(again.code).toBe(2);
      expect(again.stderr).toContain("holds no job record");
    }
    // As the message says: delete it, and bulk replaces the empty output with --force.
    unlinkSync(journal);
    const redone = await runCli(
      ["bulk", "echo", "-", "-o", output, "--delimiter", ";", "--force", "-q"],
      env,
      semicolons(2)
    );
    expect(redone.code).toBe(0);
    expect(readCsv(readFileSync(output, "utf8")).map((row) => [row.id, row.text])).toEqual(rows(2));
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(2);
  }, 60_000);
});
