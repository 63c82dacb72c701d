import { mkdirSync, readFileSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli, startCli, waitFor } from "./support/spawnCli.js";
import { handJournal } from "./support/handJournal.js";
import { printedCommand, runPrinted } from "./support/printedCommand.js";
import { csvText, readCsv, readJournal, tempDir, type TempDir } from "./support/tables.js";

/**
 * Every next step the command line prints works when run exactly as printed (through sh -c),
 * with the input in another folder than the output (data/ and out/), after Ctrl-C, kill -9, an
 * expired bulk run and a budget stop.
 */
describe("spellrun's printed next steps", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
    fixture.emulator.setFaults({});
    mkdirSync(temp.file("data"));
    mkdirSync(temp.file("out"));
  });
  afterEach(() => temp.remove());

  const env = () => cliEnv(fixture.emulator);
  /** Every input of `spell` was started at most once at the service. */
  const startedAtMostOnce = () =>
    Object.values(fixture.emulator.stats.bulkCreatedByKey).every((count) => count === 1);
  const hasGroups = (output: string, count: number) => () => {
    try {
      return readJournal(`${output}.journal`).filter((r) => r.type === "group").length >= count;
    } catch {
      return false;
    }
  };

  it("should print a resume after Ctrl-C that works as printed", async () => {
    // Rows 0-4 finish at once, 5-19 run for minutes (cancelled), 20-29 are never submitted.
    const rows = Array.from({ length: 30 }, (_, i) => [i, i >= 5 && i < 20 ? 30_000_000 : 10]);
    const input = temp.write("data/in.csv", csvText(["id", "ms"], rows));
    const output = temp.file("out/out.csv");
    const cli = startCli(
      ["bulk", "sleep", input, "-o", output, "--chunk-size", "5", "--max-in-flight", "3", "-q"],
      env()
    );
    await waitFor(hasGroups(output, 4), 20_000, "four groups");
    cli.child.kill("SIGINT");
    const stopped = await cli.exited;
    expect(stopped.code).toBe(130);
    const resume = printedCommand(stopped.stderr, "resume with: ");
    expect(resume).toContain(`--input ${input}`);

    const resumed = await runPrinted(resume, env());
    expect(resumed.stderr).not.toContain("pass --input");
    expect(resumed.code).toBe(1); // the cancelled rows
    const written = readCsv(readFileSync(output, "utf8"));
    expect(written.map((row) => row.id)).toEqual(rows.map(([id]) => String(id)));
    expect(written.slice(20).every((row) => row.status === "success")).toBeTrue();
    expect(startedAtMostOnce()).toBeTrue();
  }, 90_000);

  it("should print in status, after kill -9, a next step that works as printed", async () => {
    const rows = Array.from({ length: 10 }, (_, i) => [i, 100_000]);
    const input = temp.write("data/in.csv", csvText(["id", "ms"], rows));
    const output = temp.file("out/out.csv");
    const cli = startCli(["bulk", "sleep", input, "-o", output, "--chunk-size", "5", "-q"], env());
    await waitFor(hasGroups(output, 2), 20_000, "two groups");
    cli.child.kill("SIGKILL");
    await cli.exited;
    const status = await runCli(["status", `${output}.journal`], env());
    const next = printedCommand(status.stdout, "next       ");
    const resumed = await runPrinted(next, env());
    expect(resumed.code).toBe(0);
    expect(readCsv(readFileSync(output, "utf8")).map((row) => row.status)).toEqual(
      new Array(10).fill("success")
    );
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(10);
  }, 90_000);

  it("should print after an expired bulk run a retry that works as printed", async () => {
    const rows = Array.from({ length: 6 }, (_, i) => [i, 100]);
    const input = temp.write("data/in.csv", csvText(["id", "ms"], rows));
    const output = temp.write("out/out.csv", "");
    const journal = handJournal(
      fixture.emulator,
      { input, output },
      { spellId: "sleep", chunkSize: 3, total: 6 },
      [
        { type: "intent", window: 0, firstRow: 0, count: 3 },
        { type: "group", window: 0, groupId: "bulk-long-gone" },
      ]
    );
    const resumed = await runCli(["resume", journal, "--input", input, "-q"], env());
    expect(resumed.code).toBe(1);
    const retry = printedCommand(resumed.stderr, "run them again with: ");
    const retried = await runPrinted(retry, env());
    expect(retried.code).toBe(0);
    const written = readCsv(readFileSync(output, "utf8"));
    expect(written.every((row) => row.status === "success")).toBeTrue();
    expect(startedAtMostOnce()).toBeTrue();
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(6);
  }, 60_000);

  it("should hold resume to the default budget and print a next step with the --max-runs it needs", async () => {
    const rows = Array.from({ length: 1001 }, (_, i) => [`row ${i}`]);
    const input = temp.write("data/in.csv", csvText(["text"], rows));
    const output = temp.write("out/out.csv", "");
    const journal = handJournal(
      fixture.emulator,
      { input, output },
      { chunkSize: 500, total: 1001 }
    );

    const refused = await runCli(["resume", journal, "--input", input, "-q"], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("resume would start up to 1001 new runs");
    expect(refused.stderr).toContain("--max-runs 1001");
    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);

    const status = await runCli(["status", journal], env());
    const next = printedCommand(status.stdout, "next       ");
    expect(next).toContain("--max-runs 1001");
    const resumed = await runPrinted(
      next.replace(" resume ", " resume --progress-every 60 "),
      env()
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain("resume: will start up to 1001 new runs of spell 'echo'");
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(1001);
  }, 90_000);

  it("should name, when bulk refuses an unfinished journal, a resume with the --max-runs it needs", async () => {
    const rows = Array.from({ length: 1001 }, (_, i) => [`row ${i}`]);
    const input = temp.write("data/in.csv", csvText(["text"], rows));
    const output = temp.write("out/out.csv", "");
    handJournal(fixture.emulator, { input, output }, { chunkSize: 500, total: 1001 });

    const refused = await runCli(
      ["bulk", "echo", input, "-o", output, "--max-runs", "2000", "-q"],
      env()
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("belongs to an unfinished job");
    const resume = printedCommand(refused.stderr, 'continue it with "').replace(/".*$/, "");
    expect(resume).toContain("--max-runs 1001");
    const resumed = await runPrinted(
      resume.replace(" resume ", " resume --progress-every 60 "),
      env()
    );
    expect(resumed.code).toBe(0);
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(1001);
    expect(startedAtMostOnce()).toBeTrue();
  }, 90_000);

  it("should go on from a budget stop of stdin with status's next step, as printed", async () => {
    const rows = csvText(
      ["text"],
      Array.from({ length: 12 }, (_, i) => [`row ${i}`])
    );
    const output = temp.file("out/out.csv");
    const stopped = await runCli(
      ["bulk", "echo", "-", "-o", output, "--max-runs", "10", "--chunk-size", "5", "-q"],
      env(),
      rows
    );
    expect(stopped.code).toBe(2);
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(10);
    const status = await runCli(["status", `${output}.journal`], env());
    const next = printedCommand(status.stdout, "next       ");
    const resumed = await runPrinted(next, env(), { stdin: rows });
    expect(resumed.code).toBe(0);
    expect(readCsv(readFileSync(output, "utf8")).map((row) => row.text)).toEqual(
      Array.from({ length: 12 }, (_, i) => `row ${i}`)
    );
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(12);
    expect(startedAtMostOnce()).toBeTrue();
  }, 60_000);
});
