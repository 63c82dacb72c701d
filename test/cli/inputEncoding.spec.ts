import { existsSync, writeFileSync } from "node:fs";
import iconv from "iconv-lite";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli } from "./support/spawnCli.js";
import { readCsv, readJournal, readJsonl, tempDir, type TempDir } from "./support/tables.js";

describe("spellrun bulk reads the input's encoding, or refuses it", () => {
  const fixture = useEmulator({ timeScale: 0.02 });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  /** Writes bytes to a file of the temp folder. */
  const writeBytes = (name: string, bytes: Buffer): string => {
    writeFileSync(temp.file(name), bytes);
    return temp.file(name);
  };

  it("should refuse Windows-1252 input naming the line and byte, start nothing, and read it with --encoding", async () => {
    const input = writeBytes(
      "excel.csv",
      iconv.encode("id,text\r\n1,plain\r\n2,café crème\r\n3,naïve\r\n", "windows-1252")
    );
    const refused = await runCli(["bulk", "echo", input, "--quiet"], cliEnv(fixture.emulator));
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`${input} line 3: byte 0xE9`);
    expect(refused.stderr).toContain("--encoding windows-1252");
    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);
    expect(existsSync(temp.file("excel.out.csv"))).toBeFalse();

    const read = await runCli(
      ["bulk", "echo", input, "--quiet", "--encoding", "windows-1252"],
      cliEnv(fixture.emulator)
    );
    expect(read.code).toBe(0);
    const rows = readCsv(temp.read("excel.out.csv"));
    expect(rows.map((row) => row.text_output)).toEqual(["plain", "café crème", "naïve"]);
    expect(rows.map((row) => row.text)).toEqual(["plain", "café crème", "naïve"]);
    // resume and retry read the input as bulk did.
    expect(readJournal(temp.file("excel.out.csv.journal"))[0].reading).toEqual({
      encoding: "windows-1252",
    });
  }, 30_000);

  it("should refuse an unknown --encoding before reading anything (exit 2)", async () => {
    const input = temp.write("in.csv", "text\na\n");
    const result = await runCli(
      ["bulk", "echo", input, "--encoding", "klingon", "--dry-run"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--encoding klingon: no such encoding");
  }, 30_000);

  it("should read UTF-8 with a BOM and UTF-16 LE/BE with a BOM, for CSV, TSV and JSONL alike", async () => {
    const csv = "text,n\ncafé,1\n";
    const tsv = "text\tn\ncafé\t1\n";
    const jsonl = '{"text":"café","n":"1"}\n';
    const bom8 = Buffer.from([0xef, 0xbb, 0xbf]);
    const files: [string, Buffer][] = [
      ["utf8bom.csv", Buffer.concat([bom8, Buffer.from(csv)])],
      ["utf16le.csv", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, "utf16le")])],
      [
        "utf16be.tsv",
        Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(tsv, "utf16le").swap16()]),
      ],
      ["utf8bom.jsonl", Buffer.concat([bom8, Buffer.from(jsonl)])],
      ["utf16le.jsonl", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(jsonl, "utf16le")])],
    ];
    for (const [name, bytes] of files) {
      const input = writeBytes(name, bytes);
      const output = temp.file(`${name}.out.jsonl`);
      const result = await runCli(
        ["bulk", "echo", input, "-o", output, "--quiet"],
        cliEnv(fixture.emulator)
      );
      expect(result.code).withContext(`${name}: ${result.stderr}`).toBe(0);
      const rows = readJsonl(temp.read(`${name}.out.jsonl`));
      expect(rows.map((row) => row.input))
        .withContext(name)
        .toEqual([{ text: "café", n: "1" }]);
    }
  }, 60_000);

  it("should read a JSONL with a BOM from stdin", async () => {
    const result = await runCli(
      ["bulk", "echo", "-", "--format", "jsonl", "-o", "-", "--quiet"],
      cliEnv(fixture.emulator),
      '\uFEFF{"text":"a"}\n{"text":"b"}\n'
    );
    expect(result.code).toBe(0);
    expect(readJsonl(result.stdout).map((row) => row.outputs.text)).toEqual(["a", "b"]);
  }, 30_000);

  it("should keep JSONL keys missing from the first row in a CSV output (the union, in first-seen order)", async () => {
    const input = temp.write(
      "varying.jsonl",
      '{"id":1,"text":"a"}\n{"id":2,"lang":"fr","text":"b"}\n{"note":"n3","id":3}\n'
    );
    const result = await runCli(
      ["bulk", "echo", input, "-o", temp.file("out.csv"), "--quiet", "--chunk-size", "1"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(0);
    const text = temp.read("out.csv");
    expect(text.split("\n")[0].startsWith("id,text,lang,note,status,")).toBeTrue();
    const rows = readCsv(text);
    expect(rows.map((row) => [row.id, row.text, row.lang, row.note])).toEqual([
      ["1", "a", "", ""],
      ["2", "b", "fr", ""],
      ["3", "", "", "n3"],
    ]);
  }, 30_000);
});
