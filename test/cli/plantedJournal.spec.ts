import { chmodSync, chownSync, mkdirSync, symlinkSync, truncateSync, unlinkSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { fingerprintInput } from "../../cli/job/InputFingerprint.js";
import { cliEnv, runCli } from "./support/spawnCli.js";
import { handJournal } from "./support/handJournal.js";
import { csvText, readCsv, tempDir, type TempDir } from "./support/tables.js";

/**
 * A journal decides which spell runs over which rows and whether cells are guarded: one that
 * someone else could have written, or an input that is a link or changed since the job began,
 * starts nothing.
 */
describe("resume and retry with a planted journal or a changed input", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  const env = () => cliEnv(fixture.emulator);
  const sent = () =>
    Object.values(fixture.emulator.stats.requests).reduce((sum, count) => sum + count, 0);

  /** An unstarted job of `count` rows in `folder` (created), its input beside it. */
  function job(folder: string, count = 3, fields: Record<string, unknown> = {}): string {
    mkdirSync(temp.file(folder), { recursive: true });
    const input = temp.write(
      `${folder}/in.csv`,
      csvText(
        ["text"],
        Array.from({ length: count }, (_, i) => [`=row ${i}`])
      )
    );
    const output = temp.write(`${folder}/out.csv`, "");
    return handJournal(fixture.emulator, { input, output }, { total: count, ...fields });
  }

  it("should refuse a journal writable by others, or in a folder others can write", async () => {
    const writable = job("a");
    chmodSync(writable, 0o666);
    const refused = await runCli(["resume", writable, "-q"], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("is writable by everyone");
    expect(refused.stderr).toContain("nothing was sent");

    const shared = job("shared");
    chmodSync(temp.file("shared"), 0o777);
    const inShared = await runCli(["resume", shared, "-q"], env());
    expect(inShared.code).toBe(2);
    expect(inShared.stderr).toContain("a folder others can write");
    expect(sent()).toBe(0);

    const status = await runCli(["status", shared], env());
    expect(status.stdout).toContain("next       none:");
  }, 30_000);

  it("should not let a planted journal make the output beside it replaceable by bulk", async () => {
    const notes = temp.write("notes.csv", "my,own\nnotes,here\n");
    handJournal(fixture.emulator, { input: temp.file("x.csv"), output: notes }, {}, [
      { type: "end", outcome: "complete", rows: 0 },
    ]);
    chmodSync(`${notes}.journal`, 0o666);
    const input = temp.write("in.csv", csvText(["text"], [["a"]]));
    const result = await runCli(["bulk", "echo", input, "-o", notes, "-q"], env());
    expect(result.code).toBe(2);
    expect(temp.read("notes.csv")).toBe("my,own\nnotes,here\n");
    expect(sent()).toBe(0);
  }, 30_000);

  it("should refuse a journal owned by another user", async () => {
    if (process.getuid?.() !== 0) {
      pending("needs root to give a file to another user");
      return;
    }
    const journal = job("b");
    chownSync(journal, 4242, 4242);
    const refused = await runCli(["resume", journal, "-q"], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("is owned by user 4242");
    expect(sent()).toBe(0);
  }, 30_000);

  it("should not let a journal turn the CSV guard off without --no-csv-guard", async () => {
    const journal = job("c", 3, { csvGuard: false });
    const refused = await runCli(["resume", journal, "-q"], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("pass --no-csv-guard again");
    expect(sent()).toBe(0);
    const confirmed = await runCli(["resume", journal, "-q", "--no-csv-guard"], env());
    expect(confirmed.code).toBe(0);
    expect(readCsv(temp.read("c/out.csv")).map((row) => row.text)).toEqual([
      "=row 0",
      "=row 1",
      "=row 2",
    ]);
  }, 30_000);

  it("should never read an input through a symbolic link", async () => {
    const secret = temp.write("secret.csv", "text\nssh-rsa AAAA-private\n");
    mkdirSync(temp.file("d"));
    symlinkSync(secret, temp.file("d/in.csv"));
    const bulk = await runCli(["bulk", "echo", temp.file("d/in.csv"), "-q"], env());
    expect(bulk.code).toBe(3);
    expect(bulk.stderr).toContain("symbolic link");

    const journal = job("e");
    unlinkSync(temp.file("e/in.csv"));
    symlinkSync(secret, temp.file("e/in.csv"));
    const resumed = await runCli(["resume", journal, "-q"], env());
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toContain("symbolic link");
    expect(sent()).toBe(0);
    expect(JSON.stringify(fixture.emulator.stats.bulkCreatedByKey)).not.toContain("ssh-rsa");
  }, 30_000);

  it("should refuse an input changed since the job began, saying what changed", async () => {
    const journal = job("f", 20);
    const fingerprint = fingerprintInput(temp.file("f/in.csv"));
    handJournal(
      fixture.emulator,
      { input: temp.file("f/in.csv"), output: temp.file("f/out.csv") },
      { total: 20, inputFingerprint: fingerprint }
    );
    truncateSync(temp.file("f/in.csv"), fingerprint.size - 9);
    const refused = await runCli(["resume", journal, "-q"], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`size ${fingerprint.size} → ${fingerprint.size - 9} bytes`);
    expect(refused.stderr).toContain("content (SHA-256) differs");
    // The advice is one bulk accepts: the same -o is refused while this journal is unfinished.
    expect(refused.stderr).toContain("start a new job with spellrun bulk and another output (-o)");
    expect(sent()).toBe(0);
  }, 30_000);

  it("should refuse an input shorter than the job, even without a fingerprint", async () => {
    const journal = job("h", 20);
    temp.write("h/in.csv", csvText(["text"], [["=row 0"], ["=row 1"]]));
    const refused = await runCli(["resume", journal, "-q"], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("has 2 rows, but this job began with 20");
    expect(sent()).toBe(0);
    const status = await runCli(["status", journal], env());
    expect(status.stdout).not.toContain("state      complete");
  }, 30_000);

  it("should read the whole input before the first start", async () => {
    const journal = job("g", 20);
    // A row of two cells under a header of one, at the end: no run may start before it is seen.
    temp.write("g/in.csv", `${temp.read("g/in.csv")}late,extra\n`);
    const refused = await runCli(["resume", journal, "-q"], env());
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("line 22");
    expect(sent()).toBe(0);
  }, 30_000);

  it("should hold retry to --max-runs before anything is sent", async () => {
    const rows = Array.from({ length: 4 }, (_, i) => [`hello ${i}`, i === 0 ? "es" : "xx"]);
    const input = temp.write("in.csv", csvText(["text", "language"], rows));
    const output = temp.file("out.csv");
    const first = await runCli(["bulk", "translate", input, "-o", output, "-q"], env());
    expect(first.code).toBe(1);
    fixture.emulator.resetStats();
    const refused = await runCli(["retry", `${output}.journal`, "--max-runs", "2", "-q"], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("retry would start up to 3 new runs");
    expect(sent()).toBe(0);
    const retried = await runCli(["retry", `${output}.journal`, "--max-runs", "3"], env());
    expect(retried.code).toBe(1);
    expect(retried.stderr).toContain("retry: will start up to 3 new runs of spell 'translate'");
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(3);
  }, 30_000);
});
