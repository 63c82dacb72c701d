import { readFileSync, writeFileSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { startLossyProxy } from "../bulkJob/support/lossyProxy.js";
import { cliEnv, runCli, startCli, waitFor } from "./support/spawnCli.js";
import { csvText, readCsv, tempDir, type TempDir } from "./support/tables.js";

/**
 * Where the command line had drifted from the task pane on the rules that cost money or rows
 * (issue 15). Each spec failed before the command line ran on the core's bulk-job engine.
 */
describe("spellrun bulk jobs (one rule with the task pane)", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
    fixture.emulator.setFaults({});
  });
  afterEach(() => temp.remove());

  function createdPerRow(rows: (string | number)[][], spell = "sleep"): number[] {
    const created = fixture.emulator.stats.bulkCreatedByKey;
    return rows.map(
      ([id, ms]) => created[JSON.stringify([spell, { id: String(id), ms: String(ms) }])] ?? 0
    );
  }

  it("should not send again on resume a bulkStart answered 408 after the group was created", async () => {
    const proxy = await startLossyProxy(fixture.emulator.baseUrl, { status: 408 });
    try {
      const rows = Array.from({ length: 6 }, (_, i) => [i, 100]);
      const input = temp.write("in.csv", csvText(["id", "ms"], rows));
      const output = temp.file("out.csv");
      const env = cliEnv(fixture.emulator, { SPELL_BASE_URL: proxy.baseUrl });
      const first = await runCli(
        ["bulk", "sleep", input, "-o", output, "--chunk-size", "3", "--max-in-flight", "1", "-q"],
        env
      );
      expect(first.code).toBe(5);
      expect(first.stderr).toContain("HTTP 408");
      expect(first.stderr).toContain("rows 1-3 may have been started");
      expect(first.stderr).toContain("--rerun-unknown");
      const resumed = await runCli(["resume", `${output}.journal`, "-q"], env);
      expect(resumed.code).toBe(1);
      const written = readCsv(readFileSync(output, "utf8"));
      expect(written.map((row) => row.status)).toEqual([
        ...new Array(3).fill("unknown"),
        ...new Array(3).fill("success"),
      ]);
      expect(createdPerRow(rows)).toEqual(new Array(6).fill(1));
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it("should keep on Ctrl-C the runs that finished since the last poll", async () => {
    // Rows 0-2 finish 2.4 s after the start; rows 3-4 would run for 10 minutes (scaled).
    const rows = Array.from({ length: 5 }, (_, i) => [i, i < 3 ? 120_000 : 30_000_000]);
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const output = temp.file("out.csv");
    const cli = startCli(
      ["bulk", "sleep", input, "-o", output, "--chunk-size", "5", "-q"],
      cliEnv(fixture.emulator)
    );
    await waitFor(() => fixture.emulator.stats.bulkGroupsCreated === 1, 20_000, "the group");
    const createdAt = Date.now();
    // The client polls 0.25, 0.5, 1, 2 and 4 s after the start: interrupt between the last two,
    // as soon as rows 0-2 have finished (2.4 s; rows 3-4 alone still run), rather than after a
    // pause of 3.2 s that left a loaded machine 0.8 s before the next poll.
    await waitFor(
      () => fixture.emulator.stats.inFlight === 2 && Date.now() - createdAt > 2400,
      20_000,
      "rows 0-2 finished"
    );
    const pollsBefore = fixture.emulator.stats.requests.getBulkRuns;
    cli.child.kill("SIGINT");
    const result = await cli.exited;
    expect(Date.now() - createdAt).toBeGreaterThan(2400);
    // No poll saw rows 0-2 finished: only a read after the cancel can.
    expect(pollsBefore).toBeLessThanOrEqual(4);
    expect(result.code).toBe(130);
    const written = readCsv(readFileSync(output, "utf8"));
    expect(written.map((row) => row.status)).toEqual([
      "success",
      "success",
      "success",
      "cancelled",
      "cancelled",
    ]);
    expect(written[0].slept).toBe("120000");
    expect(fixture.emulator.stats.requests.cancelBulk).toBe(1);
  }, 60_000);

  it("should say plainly that a group expired and run its rows again with spellrun retry", async () => {
    const rows = Array.from({ length: 6 }, (_, i) => [i, 100]);
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const output = temp.file("out.csv");
    const job = {
      type: "job",
      version: 1,
      spellId: "sleep",
      input,
      inputFormat: "csv",
      output,
      outputFormat: "csv",
      chunkSize: 3,
      mapping: { rename: {} },
      csvGuard: true,
      baseUrl: fixture.emulator.baseUrl,
      pollBaseUrl: fixture.emulator.pollBaseUrl,
      authHeader: "authorization",
      total: 6,
    };
    // Window 0 was started long ago; its group is gone at the service.
    const journal = [
      job,
      { type: "intent", window: 0, firstRow: 0, count: 3 },
      { type: "group", window: 0, groupId: "bulk-long-gone" },
    ];
    writeFileSync(`${output}.journal`, journal.map((r) => `${JSON.stringify(r)}\n`).join(""));
    writeFileSync(output, "");

    const resumed = await runCli(["resume", `${output}.journal`, "-q"], cliEnv(fixture.emulator));
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain("expired");
    expect(resumed.stderr).toContain(`spellrun retry ${output}.journal`);
    expect(resumed.stderr).not.toContain("keep running");
    expect(readCsv(readFileSync(output, "utf8")).map((row) => row.status)).toEqual([
      ...new Array(3).fill("expired"),
      ...new Array(3).fill("success"),
    ]);

    const retried = await runCli(["retry", `${output}.journal`, "-q"], cliEnv(fixture.emulator));
    expect(retried.code).toBe(0);
    const written = readCsv(readFileSync(output, "utf8"));
    expect(written.map((row) => row.id)).toEqual(rows.map(([id]) => String(id)));
    expect(written.every((row) => row.status === "success" && row.slept === "100")).toBeTrue();
    expect(createdPerRow(rows)).toEqual(new Array(6).fill(1));
  }, 60_000);

  it("should end a permanent failure with its own exit code, no resume promise and no blocking journal", async () => {
    const rows = Array.from({ length: 4 }, (_, i) => [i, 100]);
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const output = temp.file("out.csv");
    const env = cliEnv(fixture.emulator);
    const wrong = await runCli(["bulk", "no-such-spell", input, "-o", output, "-q"], env);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain("HTTP 404");
    expect(wrong.stderr).toContain("nothing was started");
    expect(wrong.stderr).not.toContain("keep running");
    const status = await runCli(["status", `${output}.journal`], env);
    expect(status.stdout).toContain("nothing was started");
    expect(status.stdout).not.toContain("next       spellrun resume");

    const corrected = await runCli(["bulk", "sleep", input, "-o", output, "-q"], env);
    expect(corrected.code).toBe(0);
    expect(readCsv(readFileSync(output, "utf8")).map((row) => row.status)).toEqual(
      new Array(4).fill("success")
    );
    expect(createdPerRow(rows)).toEqual(new Array(4).fill(1));
  }, 60_000);

  it("should run failed and cancelled rows again with spellrun retry, never a succeeded one", async () => {
    // Rows 1 and 4 fail (a negative duration); the user fixes them in the input, then retries.
    const rows = Array.from({ length: 6 }, (_, i) => [i, i % 3 === 1 ? -1 : 100]);
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const output = temp.file("out.csv");
    const env = cliEnv(fixture.emulator);
    const first = await runCli(
      ["bulk", "sleep", input, "-o", output, "--chunk-size", "4", "-q"],
      env
    );
    expect(first.code).toBe(1);
    expect(first.stderr).toContain(`spellrun retry ${output}.journal`);
    const fixed = rows.map(([id, ms]) => [id, ms === -1 ? 50 : ms]);
    writeFileSync(input, csvText(["id", "ms"], fixed));

    // A changed input is refused (it says what changed) unless the user says so.
    const refused = await runCli(["retry", `${output}.journal`, "-q"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("content (SHA-256) differs");
    expect(refused.stderr).toContain("--input-changed");
    const retried = await runCli(["retry", `${output}.journal`, "-q", "--input-changed"], env);
    expect(retried.code).toBe(0);
    const written = readCsv(readFileSync(output, "utf8"));
    expect(written.map((row) => row.id)).toEqual(rows.map(([id]) => String(id)));
    expect(written.map((row) => row.slept)).toEqual(fixed.map(([, ms]) => String(ms)));
    expect(written.every((row) => row.status === "success")).toBeTrue();
    // Succeeded rows ran once; the failed ones once with their old inputs and once fixed.
    expect(createdPerRow(fixed)).toEqual(new Array(6).fill(1));
    expect(createdPerRow(rows)).toEqual([1, 1, 1, 1, 1, 1]);
    expect((await runCli(["status", `${output}.journal`], env)).code).toBe(0);
  }, 60_000);
});
