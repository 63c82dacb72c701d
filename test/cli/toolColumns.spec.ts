import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli } from "./support/spawnCli.js";
import { tempDir, type TempDir } from "./support/tables.js";

/** Input columns named like the tool's own columns, with values that are not row statuses. */
const HEADER = ["id", "text", "language", "status", "error", "other_outputs", "__proto__"];
const ROWS = [
  ["1", "hello world", "es", "open", "none", "{}", "a"],
  ["2", "hello", "xx", "closed", "late", "", "b"],
  ["3", "good morning", "fr", "open", "", "x", "c"],
  ["4", "thank you", "xx", "success", "failure", "[]", "d"],
];

describe("spellrun with input columns named like its own (status, error, other_outputs, __proto__)", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  const startsOf = (text: string, language: string) =>
    fixture.emulator.stats.bulkCreatedByKey[JSON.stringify(["translate", { text, language }])] ?? 0;

  it("should keep every column distinct without dots, and retry exactly the failed rows", async () => {
    const input = temp.write("in.csv", stringify([HEADER, ...ROWS]));
    const output = temp.file("out.csv");
    const args = ["--only", "text,language", "--chunk-size", "2", "--quiet"];
    const first = await runCli(
      ["bulk", "translate", input, "-o", output, ...args],
      cliEnv(fixture.emulator)
    );
    expect(first.code).toBe(1);
    // Read as arrays: a parser keyed by name would lose "__proto__" (csvkit and miller keep it).
    const table = () => parse(temp.read("out.csv")) as string[][];
    const header = table()[0];
    expect(header).toEqual([
      ...HEADER,
      "status_spellrun",
      "translation",
      "language_output",
      "error_spellrun",
      "other_outputs_spellrun",
    ]);
    const check = () => {
      const [, ...rows] = table();
      expect(rows.map((row) => row.slice(0, HEADER.length))).toEqual(ROWS);
      expect(rows.map((row) => row[HEADER.length])).toEqual([
        "success",
        "failure",
        "success",
        "failure",
      ]);
      expect(rows[1][HEADER.length + 3]).toContain("Unsupported language");
    };
    check();

    const retry = await runCli(["retry", `${output}.journal`, "--quiet"], cliEnv(fixture.emulator));
    expect(retry.stderr).not.toContain("not a row status");
    expect(retry.code).toBe(1);
    check();
    // The succeeded rows were paid once; the failed ones once more by the retry.
    expect(startsOf("hello world", "es")).toBe(1);
    expect(startsOf("good morning", "fr")).toBe(1);
    expect(startsOf("hello", "xx")).toBe(2);
    expect(startsOf("thank you", "xx")).toBe(2);
  }, 60_000);

  it("should send a __proto__ column as an input like any other and write it back as data", async () => {
    const input = temp.write(
      "in.csv",
      stringify([
        ["id", "__proto__"],
        ["1", "a"],
        ["2", "b"],
      ])
    );
    const output = temp.file("out.csv");
    const result = await runCli(
      ["bulk", "echo", input, "-o", output, "-q"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).withContext(result.stderr).toBe(0);
    expect(parse(temp.read("out.csv"))).toEqual([
      ["id", "__proto__", "status", "id_output", "__proto___output", "error", "other_outputs"],
      ["1", "a", "success", "1", "a", "", ""],
      ["2", "b", "success", "2", "b", "", ""],
    ]);
    const run = await runCli(
      ["run", "echo", "--input", '{"__proto__":"z","a":1}'],
      cliEnv(fixture.emulator)
    );
    expect(run.code).withContext(run.stderr).toBe(0);
    expect(run.stdout).toContain('"__proto__": "z"');
  }, 30_000);
});
