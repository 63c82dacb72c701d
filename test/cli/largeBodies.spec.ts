import { readFileSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { startLossyProxy } from "../bulkJob/support/lossyProxy.js";
import { cliEnv, runCli, startCli, waitFor } from "./support/spawnCli.js";
import { handJournal } from "./support/handJournal.js";
import { csvText, readCsv, readJournal, tempDir, type TempDir } from "./support/tables.js";

/** `count` rows of about `bytes` bytes of text each. */
function bigRows(count: number, bytes: number): string[][] {
  return Array.from({ length: count }, (_, i) => [`Row ${i}. ${"word ".repeat(bytes / 5)}`]);
}

describe("spellrun with bodies larger than the service takes (5 MiB, the emulator's)", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  it("should split a chunk whose body would be too large before sending it", async () => {
    // 600 rows of 12 KB: 500 of them make a 6 MB body, above the service's 5 MiB.
    const input = temp.write("in.csv", csvText(["text"], bigRows(600, 12_000)));
    const result = await runCli(
      ["bulk", "summarize", input, "-o", temp.file("out.csv"), "-q"],
      cliEnv(fixture.emulator)
    );
    expect(result.stderr).not.toContain("is the Spell service running");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const rows = readCsv(readFileSync(temp.file("out.csv"), "utf8"));
    expect(rows.length).toBe(600);
    expect(rows.every((row) => row.status === "success")).toBeTrue();
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(600);
    // Below 1 MiB each (the default --max-body-bytes): at least 7 bulk runs.
    expect(fixture.emulator.stats.bulkGroupsCreated).toBeGreaterThanOrEqual(7);
  }, 90_000);

  it("should take --chunk-size on resume for rows not sent yet, and re-attach its bulk runs after kill -9", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => [i, 100_000]);
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const output = temp.write("out.csv", "");
    const journal = handJournal(
      fixture.emulator,
      { input, output },
      { spellId: "sleep", chunkSize: 500, total: 30 }
    );
    const cli = startCli(["resume", journal, "--chunk-size", "10", "-q"], cliEnv(fixture.emulator));
    await waitFor(
      () => {
        const groups = readJournal(journal).filter((r) => r.type === "group");
        const token = groups[groups.length - 1]?.token as { groupIds: string[] } | undefined;
        return token?.groupIds.length === 3;
      },
      20_000,
      "the window's three bulk runs"
    );
    expect(fixture.emulator.stats.bulkGroupsCreated).toBe(3);
    cli.child.kill("SIGKILL");
    await cli.exited;
    const resumed = await runCli(["resume", journal, "-q"], cliEnv(fixture.emulator));
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(readCsv(readFileSync(output, "utf8")).map((row) => row.status)).toEqual(
      new Array(30).fill("success")
    );
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(30);
    expect(fixture.emulator.stats.bulkGroupsCreated).toBe(3);
  }, 60_000);
});

describe("spellrun with a window sent as several bulk runs, one start unanswered", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  it("should write the rows of the unanswered bulk run unknown on resume, never run them again", async () => {
    // The third bulkStart of the window reaches the service, its answer is lost (a 502).
    const proxy = await startLossyProxy(fixture.emulator.baseUrl, { status: 502 }, 1, 2);
    try {
      const rows = Array.from({ length: 40 }, (_, i) => [i, 100]);
      const input = temp.write("in.csv", csvText(["id", "ms"], rows));
      const output = temp.file("out.csv");
      const env = cliEnv(fixture.emulator, { SPELL_BASE_URL: proxy.baseUrl });
      const first = await runCli(
        // A body limit of 300 bytes sends the window of 40 rows as four bulk runs.
        [
          "bulk",
          "sleep",
          input,
          "-o",
          output,
          "--chunk-size",
          "40",
          "--max-body-bytes",
          "300",
          "-q",
        ],
        env
      );
      expect(first.code).withContext(first.stderr).toBe(5);
      const resumed = await runCli(["resume", `${output}.journal`, "-q"], env);
      expect(resumed.code).withContext(resumed.stderr).toBe(1);
      const statuses = readCsv(readFileSync(output, "utf8")).map((row) => row.status);
      const unknown = statuses.filter((status) => status === "unknown").length;
      // The third run's rows may run: unknown. The fourth's were surely never sent (its intent
      // was never recorded): the resume sent them, once.
      expect(unknown).toBeGreaterThan(0);
      const firstUnknown = statuses.indexOf("unknown");
      expect(statuses.lastIndexOf("unknown") - firstUnknown + 1).toBe(unknown);
      expect(firstUnknown).toBeGreaterThan(0);
      expect(statuses.lastIndexOf("unknown")).toBeLessThan(39);
      expect(statuses.filter((status) => status === "success").length).toBe(40 - unknown);
      const retried = await runCli(["retry", `${output}.journal`, "-q"], env);
      expect(retried.code).withContext(retried.stderr).toBe(1);
      const after = readCsv(readFileSync(output, "utf8")).map((row) => row.status);
      expect(after.filter((status) => status === "success").length).toBe(40 - unknown);
      expect(
        Object.values(fixture.emulator.stats.bulkCreatedByKey).every((count) => count === 1)
      ).toBeTrue();
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe("spellrun and a 413", () => {
  const fixture = useEmulator({ timeScale: 0.02, bodyLimitBytes: 20_000 });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  it("should say a 413 as too large, not as a service that is down", async () => {
    const input = temp.write("in.csv", csvText(["text"], bigRows(1, 30_000)));
    const result = await runCli(
      ["bulk", "summarize", input, "-o", temp.file("out.csv"), "--max-body-bytes", "100000"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("too large");
    expect(result.stderr).not.toContain("is the Spell service running");
  }, 30_000);

  it("should never count rows the service refused (413) or has not answered as in flight", async () => {
    const input = temp.write("in.csv", csvText(["text"], bigRows(20, 10_000)));
    const result = await runCli(
      ["bulk", "summarize", input, "-o", temp.file("out.csv"), "--max-body-bytes", "100000"].concat(
        ["--chunk-size", "5", "--progress-every", "0"]
      ),
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(4);
    const lines = result.stderr
      .split("\n")
      .filter((line) => /^spellrun: \d+\/\d+ rows written/.test(line));
    expect(lines.length).toBeGreaterThan(0);
    // Nothing was started at the service: no progress line has a row in flight.
    for (const line of lines) expect(line).toContain(", 0 in flight");
    expect(lines[lines.length - 1]).toContain(
      "0/20 rows written, 0 in flight, 20 not started: the service refused them (HTTP 413, too large)"
    );
  }, 30_000);

  it("should refuse a row too large alone before sending anything", async () => {
    const input = temp.write("in.csv", csvText(["text"], bigRows(2, 30_000)));
    const result = await runCli(
      ["bulk", "summarize", input, "-o", temp.file("out.csv"), "--max-body-bytes", "10000"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("input 1 alone makes a body of");
    expect(result.stderr).toContain("too large");
    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);
  }, 30_000);
});
