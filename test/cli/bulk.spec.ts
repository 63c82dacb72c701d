import { existsSync } from "node:fs";
import { stringify } from "csv-stringify/sync";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli } from "./support/spawnCli.js";
import {
  csvText,
  readCsv,
  readJournal,
  readJsonl,
  tempDir,
  type TempDir,
} from "./support/tables.js";

const API_KEY = "sk-cli-spec-b81d20";

describe("spellrun bulk", () => {
  const fixture = useEmulator({ timeScale: 0.02, apiKey: API_KEY, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  it("should write CSV rows in input order although later bulk runs finish first", async () => {
    // Window 0 (rows 0-4) sleeps longest, so windows 1-4 finish before it.
    const rows = Array.from({ length: 23 }, (_, i) => [i, i < 5 ? 6000 : 500 + (i % 3) * 100]);
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const output = temp.file("out.csv");
    const result = await runCli(
      [
        "bulk",
        "sleep",
        input,
        "-o",
        output,
        "--chunk-size",
        "5",
        "--max-in-flight",
        "3",
        "--progress-every",
        "0",
      ],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(0);
    const written = readCsv(temp.read("out.csv"));
    expect(written.map((row) => row.id)).toEqual(rows.map((row) => String(row[0])));
    expect(written.every((row) => row.status === "success" && row.slept === row.ms)).toBeTrue();
    expect(Object.keys(written[0])).toEqual([
      "id",
      "ms",
      "status",
      "slept",
      "error",
      "other_outputs",
    ]);
    expect(fixture.emulator.stats.bulkGroupsCreated).toBe(5);
    expect(Object.values(fixture.emulator.stats.bulkCreatedByKey)).toEqual(new Array(23).fill(1));
    expect(result.stderr).toContain("23/23 rows written");
    const journal = readJournal(`${output}.journal`);
    expect(journal.filter((record) => record.type === "group").length).toBe(5);
    expect(journal[journal.length - 1]).toEqual({ type: "end", outcome: "complete", rows: 23 });
    expect(temp.read("out.csv.journal") + result.stdout + result.stderr).not.toContain(API_KEY);
  }, 60_000);

  it("should write JSONL rows in input order with the values' JSON types", async () => {
    const lines = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({ n: i, tags: ["a", i], ok: i % 2 === 0 })
    );
    const input = temp.write("in.jsonl", lines.join("\n") + "\n");
    const result = await runCli(
      ["bulk", "echo", input, "-o", temp.file("out.jsonl"), "--chunk-size", "4", "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const written = readJsonl(temp.read("out.jsonl"));
    expect(written.map((row) => row.input)).toEqual(
      lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    );
    expect(written.every((row) => row.status === "success")).toBeTrue();
    expect(written.map((row) => row.outputs)).toEqual(written.map((row) => row.input));
  }, 60_000);

  it("should rename columns with --map and write failed rows with their reason (exit 1)", async () => {
    const input = temp.write(
      "in.csv",
      csvText(
        ["body", "ms"],
        [
          ["A. B.", 1],
          ["C.", 2],
        ]
      )
    );
    const result = await runCli(
      [
        "bulk",
        "summarize",
        input,
        "-o",
        temp.file("out.csv"),
        "--map",
        "body=text",
        "--only",
        "body",
        "--quiet",
      ],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(0);
    expect(readCsv(temp.read("out.csv")).map((row) => row.summary)).toEqual(["A.", "C."]);

    const failing = await runCli(
      ["bulk", "always-fails", input, "-o", temp.file("fail.csv"), "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(failing.code).toBe(1);
    const failed = readCsv(temp.read("fail.csv"));
    expect(failed.map((row) => [row.status, row.error])).toEqual([
      ["failure", "This demo spell always fails"],
      ["failure", "This demo spell always fails"],
    ]);
  }, 60_000);

  it("should only count with --dry-run: no run, no output, no journal", async () => {
    const input = temp.write(
      "in.csv",
      csvText(
        ["text"],
        Array.from({ length: 1203 }, (_, i) => [`row ${i}`])
      )
    );
    const env = cliEnv(fixture.emulator);
    delete env.SPELL_API_KEY;
    const result = await runCli(["bulk", "summarize", input, "--dry-run"], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("1203 rows would start 1203 runs");
    expect(result.stdout).toContain("in 3 bulk runs of up to 500");
    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);
    expect(existsSync(temp.file("in.out.csv"))).toBeFalse();
    expect(existsSync(temp.file("in.out.csv.journal"))).toBeFalse();
  }, 60_000);

  it("should guard CSV cells against formula injection, unless --no-csv-guard", async () => {
    const cells = ["=1+1", "+SUM(A1)", "-2", "@cmd", "\tx", "plain", "a=b"];
    const input = temp.write("in.csv", stringify([["text"], ...cells.map((cell) => [cell])]));
    const guarded = await runCli(
      ["bulk", "echo", input, "-o", temp.file("guarded.csv"), "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(guarded.code).toBe(0);
    const expected = ["'=1+1", "'+SUM(A1)", "'-2", "'@cmd", "'\tx", "plain", "a=b"];
    const rows = readCsv(temp.read("guarded.csv"));
    expect(rows.map((row) => row.text)).toEqual(expected);
    expect(rows.map((row) => row.text_output)).toEqual(expected);

    const raw = await runCli(
      ["bulk", "echo", input, "-o", temp.file("raw.csv"), "--quiet", "--no-csv-guard"],
      cliEnv(fixture.emulator)
    );
    expect(raw.code).toBe(0);
    expect(readCsv(temp.read("raw.csv")).map((row) => row.text_output)).toEqual(cells);

    const jsonl = await runCli(
      ["bulk", "echo", input, "-o", temp.file("out.jsonl"), "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(jsonl.code).toBe(0);
    expect(readJsonl(temp.read("out.jsonl")).map((row) => row.outputs.text)).toEqual(cells);
  }, 60_000);

  it("should refuse to start over an unfinished job's journal (exit 2)", async () => {
    const input = temp.write("in.csv", csvText(["text"], [["a"]]));
    temp.write(
      "in.out.csv.journal",
      `${JSON.stringify({ type: "job", version: 1, spellId: "echo", input, inputFormat: "csv", output: temp.file("in.out.csv"), outputFormat: "csv", chunkSize: 500, mapping: { rename: {} }, csvGuard: true, baseUrl: "http://127.0.0.1:1", pollBaseUrl: "http://127.0.0.1:1", authHeader: "authorization" })}\n`
    );
    const result = await runCli(["bulk", "echo", input, "--quiet"], cliEnv(fixture.emulator));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("spellrun resume");
    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);
  }, 60_000);
});
