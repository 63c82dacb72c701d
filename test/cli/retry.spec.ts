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
});
