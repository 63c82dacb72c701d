import { existsSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli } from "./support/spawnCli.js";
import { csvText, readCsv, readJournal, tempDir, type TempDir } from "./support/tables.js";

describe("spellrun bulk with bad input", () => {
  const fixture = useEmulator({ timeScale: 0.02 });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  it("should name the line of a row with more cells than the header, before starting any run", async () => {
    const input = temp.write("in.csv", "id,text\n1,a\n2,b\n3,c,extra\n4,d\n");
    const result = await runCli(["bulk", "echo", input, "--quiet"], cliEnv(fixture.emulator));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${input} line 4: a row of 3 cells under a header of 2 names`);
    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);
    expect(existsSync(temp.file("in.out.csv"))).toBeFalse();
  }, 30_000);

  it("should name the line of a malformed quoted cell", async () => {
    const input = temp.write("in.csv", 'id,text\n1,"fine"\n2,"broken"here\n');
    const result = await runCli(["bulk", "echo", input, "--dry-run"], cliEnv(fixture.emulator));
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/line 3: .*quote/i);
  }, 30_000);

  it("should name the line where a quote that is never closed opened, not the end of the file", async () => {
    const input = temp.write(
      "in.csv",
      'id,text\n1,fine\n2,"this quote opens here\n3,and swallows\n4,every line after it\n'
    );
    const result = await runCli(["bulk", "echo", input, "--dry-run"], cliEnv(fixture.emulator));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${input} line 3: a quote opened on this line is never closed`);
    expect(result.stderr).toContain("the file ends at line 5");
    expect(fixture.emulator.stats.requests.bulkStart ?? 0).toBe(0);
  }, 30_000);

  it("should name the line of a JSONL line that is not a JSON object", async () => {
    const input = temp.write("in.jsonl", '{"a":1}\n\n{"a":2\n');
    const notJson = await runCli(["bulk", "echo", input, "--quiet"], cliEnv(fixture.emulator));
    expect(notJson.code).toBe(3);
    expect(notJson.stderr).toContain(`${input} line 3: not JSON`);
    const array = temp.write("array.jsonl", '{"a":1}\n[1,2]\n');
    const notObject = await runCli(["bulk", "echo", array, "--quiet"], cliEnv(fixture.emulator));
    expect(notObject.code).toBe(3);
    expect(notObject.stderr).toContain(`${array} line 2: each line must be a JSON object`);
  }, 30_000);

  it("should write just the header for an input with no rows, and never write over the input", async () => {
    const input = temp.write("in.csv", "id,text\n");
    const empty = await runCli(["bulk", "echo", input, "--quiet"], cliEnv(fixture.emulator));
    expect(empty.code).toBe(0);
    expect(temp.read("in.out.csv")).toBe("id,text,status,error,other_outputs\n");
    const same = await runCli(["bulk", "echo", input, "-o", input], cliEnv(fixture.emulator));
    expect(same.code).toBe(2);
    expect(same.stderr).toContain("would overwrite the input");
    expect(temp.read("in.csv")).toBe("id,text\n");
  }, 30_000);

  it("should report an unreadable file and an unknown --only column", async () => {
    const missing = await runCli(["bulk", "echo", temp.file("nope.csv")], cliEnv(fixture.emulator));
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("nope.csv: cannot read");
    const input = temp.write("in.csv", csvText(["text"], [["a"]]));
    const unknown = await runCli(
      ["bulk", "echo", input, "--only", "body"],
      cliEnv(fixture.emulator)
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No column "body"');
  }, 30_000);

  it("should stop at a malformed stdin line, keep the rows already run and not claim the output complete", async () => {
    const good = Array.from({ length: 12 }, (_, i) => `${i},row ${i}`);
    const stdin = `id,text\n${good.join("\n")}\n12,bad,extra\n13,never\n`;
    const result = await runCli(
      [
        "bulk",
        "echo",
        "-",
        "--format",
        "csv",
        "-o",
        temp.file("out.csv"),
        "--chunk-size",
        "5",
        "--quiet",
      ],
      cliEnv(fixture.emulator),
      stdin
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("stdin line 14:");
    expect(result.stderr).toContain("is not complete");
    const written = readCsv(temp.read("out.csv"));
    expect(written.map((row) => row.id)).toEqual(
      good.slice(0, written.length).map((_, i) => String(i))
    );
    expect(written.length).toBeLessThan(13);
    const journal = readJournal(temp.file("out.csv.journal"));
    expect(journal[journal.length - 1]).toEqual(
      jasmine.objectContaining({ type: "end", outcome: "input-error" })
    );
  }, 30_000);
});
