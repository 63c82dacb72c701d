import { readFileSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli, startCli, waitFor } from "./support/spawnCli.js";
import { csvText, readCsv, readJournal, tempDir, type TempDir } from "./support/tables.js";

describe("spellrun bulk stopped before any row succeeded (the layout not settled yet)", () => {
  const fixture = useEmulator({ timeScale: 0.02 });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
    fixture.emulator.setFaults({});
  });
  afterEach(() => temp.remove());

  for (const signal of ["SIGINT", "SIGHUP"] as const) {
    it(`should write the cancelled rows after the header on ${signal}, keep them on resume and let retry run them again`, async () => {
      // Two rows of 2 s from stdin, one window of 4: cancelled before any row succeeds.
      const stdin = csvText(
        ["id", "ms"],
        [
          [1, 100_000],
          [2, 100_000],
        ]
      );
      const output = temp.file("out.csv");
      const env = cliEnv(fixture.emulator);
      const cli = startCli(
        ["bulk", "sleep", "-", "-o", output, "--chunk-size", "4", "-q"],
        env,
        stdin
      );
      await waitFor(
        () => {
          try {
            return readJournal(`${output}.journal`).some((r) => r.type === "group");
          } catch {
            return false;
          }
        },
        20_000,
        "the group"
      );
      cli.child.kill(signal);
      const stopped = await cli.exited;
      expect(stopped.code).toBe(signal === "SIGINT" ? 130 : 129);

      const journal = readJournal(`${output}.journal`);
      const layoutAt = journal.findIndex((r) => r.type === "layout");
      const writtenAt = journal.findIndex((r) => r.type === "written");
      expect(layoutAt).toBeGreaterThan(0);
      // No mark vouches for rows that were not in the file yet.
      expect(writtenAt).toBeGreaterThan(layoutAt);
      const rows = readCsv(readFileSync(output, "utf8"));
      expect(rows.map((row) => [row.id, row.status])).toEqual([
        ["1", "cancelled"],
        ["2", "cancelled"],
      ]);

      // A resume as printed (the rows piped again) keeps both rows: nothing is left to start.
      const resumed = await runCli(["resume", `${output}.journal`, "-q"], env, stdin);
      expect(resumed.code).toBe(1);
      expect(fixture.emulator.stats.bulkGroupsCreated).toBe(1);
      expect(readCsv(readFileSync(output, "utf8")).map((row) => [row.id, row.status])).toEqual([
        ["1", "cancelled"],
        ["2", "cancelled"],
      ]);

      // A second resume finds the job complete, yet not every row succeeded: exit 1, and retry.
      const again = await runCli(["resume", `${output}.journal`], env, stdin);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`run them again with: spellrun retry ${output}.journal`);

      // Retry runs both again (the rows piped again).
      const retried = await runCli(["retry", `${output}.journal`, "-q"], env, stdin);
      expect(retried.stderr).not.toContain("complete with 0");
      expect(fixture.emulator.stats.bulkGroupsCreated).toBe(2);
      const after = readCsv(readFileSync(output, "utf8"));
      expect(after.map((row) => row.id)).toEqual(["1", "2"]);
      expect(after.every((row) => row.status !== "cancelled")).toBeTrue();
    }, 60_000);
  }
});
