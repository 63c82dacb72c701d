import { readFileSync, writeFileSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli, startCli, waitFor } from "./support/spawnCli.js";
import { csvText, readCsv, readJournal, tempDir, type TempDir } from "./support/tables.js";

const API_KEY = "sk-cli-spec-resume-5e11";

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe("spellrun resume", () => {
  const fixture = useEmulator({ timeScale: 0.02, apiKey: API_KEY, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  it("should lose and repeat nothing after kill -9 mid-run", async () => {
    // 40 rows in 8 windows of 5, 2 at a time; each row sleeps 400 ms (scaled).
    const rows = Array.from({ length: 40 }, (_, i) => [i, 20_000]);
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const output = temp.file("out.csv");
    const journalPath = `${output}.journal`;
    const cli = startCli(
      [
        "bulk",
        "sleep",
        input,
        "-o",
        output,
        "--chunk-size",
        "5",
        "--max-in-flight",
        "2",
        "--quiet",
      ],
      cliEnv(fixture.emulator)
    );
    const pid = cli.child.pid as number;
    // Kill while windows are running and some rows are written. The process is stopped while the
    // journal is read, so the kill lands exactly in the state that was checked.
    let killed = false;
    await waitFor(
      () => {
        if (killed) return true;
        let journal: { type: string }[] = [];
        try {
          journal = readJournal(journalPath);
        } catch {
          return false;
        }
        const groups = journal.filter((r) => r.type === "group").length;
        if (groups < 3 || !journal.some((r) => r.type === "written")) return false;
        process.kill(pid, "SIGSTOP");
        const now = readJournal(journalPath);
        const settled =
          now.filter((r) => r.type === "intent").length ===
          now.filter((r) => r.type === "group").length;
        if (settled && now.every((r) => r.type !== "end")) {
          process.kill(pid, "SIGKILL");
          killed = true;
          return true;
        }
        process.kill(pid, "SIGCONT");
        return false;
      },
      30_000,
      "a mid-run state to kill in"
    );
    const killedRun = await cli.exited;
    expect(killedRun.signal).toBe("SIGKILL");
    const createdBefore = fixture.emulator.stats.bulkRunsCreated;
    expect(createdBefore).toBeLessThan(40);

    const status = await runCli(["status", journalPath], cliEnv(fixture.emulator));
    expect(status.code).toBe(1);
    expect(status.stdout).toContain("stopped without an end record");
    expect(status.stdout).toContain(`spellrun resume ${journalPath}`);

    const resumed = await runCli(["resume", journalPath, "--quiet"], cliEnv(fixture.emulator));
    expect(resumed.code).toBe(0);
    const written = readCsv(readFileSync(output, "utf8"));
    expect(written.map((row) => row.id)).toEqual(rows.map((row) => String(row[0])));
    expect(written.every((row) => row.status === "success" && row.slept === "20000")).toBeTrue();
    const created = fixture.emulator.stats.bulkCreatedByKey;
    expect(Object.keys(created).length).toBe(40);
    expect(Object.values(created).every((count) => count === 1)).toBeTrue();
    expect(readFileSync(journalPath, "utf8")).not.toContain(API_KEY);
    expect((await runCli(["status", journalPath], cliEnv(fixture.emulator))).code).toBe(0);
  }, 90_000);

  it("should stop on a refused bulkStart (exit 4) and send those rows on resume", async () => {
    const rows = Array.from({ length: 6 }, (_, i) => [i, `text ${i}`]);
    const input = temp.write("in.csv", csvText(["id", "text"], rows));
    const output = temp.file("out.csv");
    const wrongKey = cliEnv(fixture.emulator, { SPELL_API_KEY: "sk-not-this-one" });
    const refused = await runCli(
      ["bulk", "echo", input, "-o", output, "--chunk-size", "3", "--quiet"],
      wrongKey
    );
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("HTTP 401");
    expect(refused.stderr).toContain(`resume with: spellrun resume ${output}.journal`);
    expect(readJournal(`${output}.journal`).some((record) => record.type === "refused")).toBeTrue();
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(0);

    const resumed = await runCli(
      ["resume", `${output}.journal`, "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(resumed.code).toBe(0);
    const text = readFileSync(output, "utf8");
    expect(readCsv(text).map((row) => row.id)).toEqual(rows.map(([id]) => String(id)));
    // The refused start wrote no row, so its header (no output known yet) is not kept: the
    // outputs get their own columns, as in a bulk that was never refused.
    expect(text.split("\n")[0]).toBe("id,text,status,id_output,text_output,error,other_outputs");
    expect(readCsv(text).map((row) => row.text_output)).toEqual(rows.map(([, t]) => String(t)));
    expect(Object.values(fixture.emulator.stats.bulkCreatedByKey)).toEqual(new Array(6).fill(1));
  }, 60_000);

  it("should not re-run rows whose bulkStart was never confirmed, unless --rerun-unknown", async () => {
    const rows = Array.from({ length: 10 }, (_, i) => [i, `text ${i}`]);
    const input = temp.write("in.csv", csvText(["id", "text"], rows));
    const output = temp.file("out.csv");
    const job = {
      type: "job",
      version: 1,
      spellId: "echo",
      input,
      inputFormat: "csv",
      output,
      outputFormat: "csv",
      chunkSize: 5,
      mapping: { rename: {} },
      csvGuard: true,
      baseUrl: fixture.emulator.baseUrl,
      pollBaseUrl: fixture.emulator.pollBaseUrl,
      authHeader: "authorization",
      total: 10,
    };
    // The state kill -9 leaves between the intent of window 0 and bulkStart's answer.
    const crashed = [job, { type: "intent", window: 0, firstRow: 0, count: 5 }]
      .map((record) => JSON.stringify(record))
      .join("\n");
    writeFileSync(`${output}.journal`, `${crashed}\n{"type":"gro`);
    writeFileSync(output, "");

    const status = await runCli(["status", `${output}.journal`], cliEnv(fixture.emulator));
    expect(status.stdout).toContain("1 submitted with no recorded id (5 rows");

    const resumed = await runCli(
      ["resume", `${output}.journal`, "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(resumed.code).toBe(1);
    const written = readCsv(readFileSync(output, "utf8"));
    expect(written.map((row) => row.status)).toEqual([
      ...new Array(5).fill("unknown"),
      ...new Array(5).fill("success"),
    ]);
    expect(written[0].error).toContain("--rerun-unknown");
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(5);
    expect(Object.keys(fixture.emulator.stats.bulkCreatedByKey)).toEqual(
      rows.slice(5).map(([id, text]) => JSON.stringify(["echo", { id: String(id), text }]))
    );

    writeFileSync(`${output}.journal`, `${crashed}\n`);
    writeFileSync(output, "");
    fixture.emulator.resetStats();
    await pause(10);
    const rerun = await runCli(
      ["resume", `${output}.journal`, "--quiet", "--rerun-unknown"],
      cliEnv(fixture.emulator)
    );
    expect(rerun.code).toBe(0);
    expect(
      readCsv(readFileSync(output, "utf8")).every((row) => row.status === "success")
    ).toBeTrue();
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(10);
  }, 60_000);
});
