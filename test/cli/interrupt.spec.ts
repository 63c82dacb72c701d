import { readFileSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, startCli, waitFor } from "./support/spawnCli.js";
import { csvText, readCsv, readJournal, tempDir, type TempDir } from "./support/tables.js";

/** Rows 0-4 finish at once; every later row would run for 10 minutes (scaled). */
function slowRows(count: number): (string | number)[][] {
  return Array.from({ length: count }, (_, i) => [i, i < 5 ? 10 : 30_000_000]);
}

describe("spellrun bulk on Ctrl-C", () => {
  const fixture = useEmulator({ timeScale: 0.02 });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
    fixture.emulator.setFaults({});
  });
  afterEach(() => temp.remove());

  it("should send one cancelBulk per unfinished group, keep the finished rows and say how to resume", async () => {
    const input = temp.write("in.csv", csvText(["id", "ms"], slowRows(30)));
    const output = temp.file("out.csv");
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
        "3",
        "--quiet",
      ],
      cliEnv(fixture.emulator)
    );
    // Window 0 written, windows 1-3 running, windows 4-5 never submitted.
    await waitFor(
      () => {
        try {
          const journal = readJournal(`${output}.journal`);
          return (
            journal.filter((r) => r.type === "group").length === 4 &&
            journal.some((r) => r.type === "written")
          );
        } catch {
          return false;
        }
      },
      20_000,
      "three running groups"
    );
    cli.child.kill("SIGINT");
    const result = await cli.exited;

    expect(result.code).toBe(130);
    expect(result.stderr).toContain(`resume with: spellrun resume ${output}.journal`);
    const stats = fixture.emulator.stats;
    expect(stats.bulkGroupsCreated).toBe(4);
    expect(stats.requests.cancelBulk).toBe(3);
    expect(stats.cancelledGroups).toBe(3);
    const rows = readCsv(readFileSync(output, "utf8"));
    expect(rows.map((row) => row.id)).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    expect(
      rows.slice(0, 5).every((row) => row.status === "success" && row.slept === "10")
    ).toBeTrue();
    expect(rows.slice(5).every((row) => row.status === "cancelled")).toBeTrue();
    const journal = readJournal(`${output}.journal`);
    expect(journal[journal.length - 1]).toEqual({ type: "end", outcome: "interrupted", rows: 20 });
  }, 60_000);

  it("should exit at once on a second Ctrl-C while the cancels are still on their way", async () => {
    fixture.emulator.setFaults({ latencyMs: 30_000, endpoints: ["cancelBulk"] });
    const input = temp.write("in.csv", csvText(["id", "ms"], slowRows(15).slice(5)));
    const output = temp.file("out.csv");
    const cli = startCli(
      ["bulk", "sleep", input, "-o", output, "--chunk-size", "5", "--quiet"],
      cliEnv(fixture.emulator)
    );
    await waitFor(
      () => {
        try {
          return readJournal(`${output}.journal`).filter((r) => r.type === "group").length === 2;
        } catch {
          return false;
        }
      },
      20_000,
      "two running groups"
    );
    cli.child.kill("SIGINT");
    await waitFor(() => fixture.emulator.stats.requests.cancelBulk === 2, 20_000, "the cancels");
    const pressedAt = Date.now();
    cli.child.kill("SIGINT");
    const result = await cli.exited;
    expect(result.code).toBe(130);
    // The held cancels would keep a first-press exit waiting for 30 s.
    expect(Date.now() - pressedAt).toBeLessThan(15_000);
  }, 60_000);
});
