import { writeFileSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli } from "./support/spawnCli.js";
import { csvText, tempDir, type TempDir } from "./support/tables.js";

describe("spellrun retry", () => {
  const fixture = useEmulator({ timeScale: 0.02 });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  function journalOf(output: string, input: string, records: object[]): string {
    const job = {
      type: "job",
      version: 1,
      spellId: "echo",
      input,
      inputFormat: "csv",
      output,
      outputFormat: "csv",
      chunkSize: 2,
      mapping: { rename: {} },
      csvGuard: true,
      baseUrl: fixture.emulator.baseUrl,
      pollBaseUrl: fixture.emulator.pollBaseUrl,
      authHeader: "authorization",
    };
    const path = `${output}.journal`;
    writeFileSync(path, [job, ...records].map((r) => `${JSON.stringify(r)}\n`).join(""));
    return path;
  }

  it("should send a job with a bulk run not yet collected to resume first, and start nothing", async () => {
    const input = temp.write("in.csv", csvText(["id"], [[0], [1]]));
    const output = temp.write("out.csv", "");
    const journal = journalOf(output, input, [
      { type: "intent", window: 0, firstRow: 0, count: 2 },
      { type: "group", window: 0, groupId: "g-still-running" },
      { type: "end", outcome: "service-error", rows: 0 },
    ]);
    const result = await runCli(["retry", journal, "-q"], cliEnv(fixture.emulator));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`spellrun resume ${journal}`);
    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);
  }, 30_000);

  it("should send an unfinished retry to resume, keeping its earlier output", async () => {
    const input = temp.write("in.csv", csvText(["id"], [[0], [1]]));
    const output = temp.write("out.csv", "");
    const kept = temp.write(
      "out.csv.before-retry",
      "id,status,error,other_outputs\n0,success,,\n1,failure,x,\n"
    );
    const journal = journalOf(output, input, [{ type: "end", outcome: "interrupted", rows: 0 }]);
    const records = temp.read("out.csv.journal").split("\n");
    const job = { ...JSON.parse(records[0]), retryOf: kept };
    writeFileSync(journal, [JSON.stringify(job), ...records.slice(1)].join("\n"));
    const result = await runCli(["retry", journal, "-q"], cliEnv(fixture.emulator));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`continue it with "spellrun resume ${journal}"`);
    expect(temp.read("out.csv.before-retry")).toContain("1,failure,x,");
    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);
  }, 30_000);

  it("should count in status the rows a retry ran and those it copied from the earlier output", async () => {
    // Rows 1 and 4 fail ("ms" is no number); windows 0 and 2 hold one each.
    const rows = [
      [0, 10],
      [1, "x"],
      [2, 10],
      [3, 10],
      [4, "y"],
      [5, 10],
      [6, 10],
    ];
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const output = temp.file("out.csv");
    const env = cliEnv(fixture.emulator);
    const bulk = await runCli(
      ["bulk", "sleep", input, "-o", output, "--chunk-size", "2", "-q"],
      env
    );
    expect(bulk.code).toBe(1);
    const retry = await runCli(["retry", `${output}.journal`, "-q"], env);
    expect(retry.code).toBe(1);
    const status = await runCli(["status", `${output}.journal`], env);
    // Two runs again (one per bulk run), five rows copied: never "4 submitted".
    expect(status.stdout).toContain(
      "rows       7 of 7 written; 2 submitted in 2 bulk runs of up to 2; 5 copied from the earlier output"
    );
    expect(status.stdout).toContain("statuses   success 5, failure 2");
  }, 30_000);
});
