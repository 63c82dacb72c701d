import { existsSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli, startCli, waitFor } from "./support/spawnCli.js";
import { handJournal } from "./support/handJournal.js";
import { printedCommand, runPrinted } from "./support/printedCommand.js";
import { csvText, readCsv, tempDir, type TempDir } from "./support/tables.js";

describe("the journal's lock", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    fixture.emulator.resetStats();
  });
  afterEach(() => temp.remove());

  /** An unfinished job of `count` rows that sleep `ms` (scaled) each, none started yet. */
  function unstartedJob(count: number, ms: number): string {
    const input = temp.write(
      "in.csv",
      csvText(
        ["id", "ms"],
        Array.from({ length: count }, (_, i) => [i, ms])
      )
    );
    const output = temp.write("out.csv", "");
    return handJournal(fixture.emulator, { input, output }, { spellId: "sleep", chunkSize: 3 });
  }

  it("should let one of two resumes at once run and refuse the other, starting each remaining row once", async () => {
    // Runs of 20 s (scaled): the first resume holds them while the second one tries.
    const journal = unstartedJob(6, 1_000_000);
    const first = startCli(["resume", journal, "--quiet"], cliEnv(fixture.emulator));
    await waitFor(() => existsSync(`${journal}.lock`), 20_000, "the first resume's lock");
    const second = await runCli(["resume", journal, "--quiet"], cliEnv(fixture.emulator));
    expect(second.code).toBe(6);
    expect(second.stderr).toContain("is in use by spellrun pid");
    expect(second.stderr).toContain("nothing was started");

    await waitFor(() => fixture.emulator.stats.bulkRunsCreated === 6, 20_000, "the six starts");
    first.child.kill("SIGINT");
    const done = await first.exited;
    expect(done.code).toBe(130);
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(6);
    expect(Object.values(fixture.emulator.stats.bulkCreatedByKey).every((n) => n === 1)).toBeTrue();
    expect(readCsv(temp.read("out.csv")).map((row) => row.id)).toEqual([
      "0",
      "1",
      "2",
      "3",
      "4",
      "5",
    ]);
    expect(existsSync(`${journal}.lock`)).toBeFalse();
  }, 60_000);

  it("should refuse a retry and a bulk into the same output while a resume holds the journal", async () => {
    const journal = unstartedJob(3, 1_000_000);
    const first = startCli(["resume", journal, "--quiet"], cliEnv(fixture.emulator));
    await waitFor(() => existsSync(`${journal}.lock`), 20_000, "the resume's lock");
    const retry = await runCli(["retry", journal, "--quiet"], cliEnv(fixture.emulator));
    expect(retry.code).toBe(6);
    const bulk = await runCli(
      ["bulk", "sleep", temp.file("in.csv"), "-o", temp.file("out.csv"), "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(bulk.code).toBe(6);
    first.child.kill("SIGINT");
    expect((await first.exited).code).toBe(130);
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(3);
  }, 60_000);

  it("should take over a lock left by a process of this host that is gone, and not one of another host", async () => {
    const journal = unstartedJob(2, 10);
    const lock = `${journal}.lock`;
    // A pid far above any pid_max in use: no such process.
    writeFileSync(
      lock,
      JSON.stringify({ pid: 2 ** 30, host: "elsewhere.example", startedAt: "x" })
    );
    const foreign = await runCli(["resume", journal, "--quiet"], cliEnv(fixture.emulator));
    expect(foreign.code).toBe(6);
    expect(foreign.stderr).toContain("on elsewhere.example");
    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);

    writeFileSync(lock, JSON.stringify({ pid: 2 ** 30, host: hostname(), startedAt: "x" }));
    const stale = await runCli(["resume", journal, "--quiet"], cliEnv(fixture.emulator));
    expect(stale.code).toBe(0);
    expect(existsSync(lock)).toBeFalse();
    expect(fixture.emulator.stats.bulkRunsCreated).toBe(2);
  }, 60_000);

  it("should say in status that a locked job is running, with a next step that works as printed, never a resume", async () => {
    const journal = unstartedJob(2, 10);
    // The spec's own process: a live pid of this host, as a resume running in another terminal.
    writeFileSync(
      `${journal}.lock`,
      JSON.stringify({ pid: process.pid, host: hostname(), startedAt: "2026-01-02T03:04:05Z" })
    );
    const status = await runCli(["status", journal], cliEnv(fixture.emulator));
    expect(status.stdout).toContain(
      `running in spellrun pid ${process.pid} on ${hostname()}, since 2026-01-02T03:04:05Z`
    );
    expect(status.stdout).not.toContain("killed?");
    expect(status.stdout).not.toContain("resume");
    const next = printedCommand(status.stdout, "next       ");
    expect(next).toMatch(/^spellrun status /);
    const again = await runPrinted(next, cliEnv(fixture.emulator));
    expect(again.stderr).toBe("");
    expect(again.code).toBe(1);
    expect(again.stdout).toContain("running in spellrun pid");

    // A lock left by a process that is gone: stopped, and resume is the next step.
    writeFileSync(`${journal}.lock`, JSON.stringify({ pid: 2 ** 30, host: hostname() }));
    const stale = await runCli(["status", journal], cliEnv(fixture.emulator));
    expect(stale.stdout).toContain("killed?");
    expect(printedCommand(stale.stdout, "next       ")).toMatch(/^spellrun resume /);
    expect(fixture.emulator.stats.requests.bulkStart).toBe(0);
  }, 60_000);
});
