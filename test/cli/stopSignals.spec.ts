import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, REPO_ROOT, startCli, waitFor } from "./support/spawnCli.js";
import { csvText, readCsv, readJournal, tempDir, type TempDir } from "./support/tables.js";

/** Rows 0-4 finish at once; every later row would run for 10 minutes (scaled). */
function slowRows(count: number): (string | number)[][] {
  return Array.from({ length: count }, (_, i) => [i, i < 5 ? 10 : 30_000_000]);
}

const HIDE_CURSOR = "\u001b[?25l";
const SHOW_CURSOR = "\u001b[?25h";

describe("spellrun bulk on SIGTERM, SIGHUP and a closed output pipe", () => {
  const fixture = useEmulator({ timeScale: 0.02 });
  let temp: TempDir;

  beforeEach(() => {
    temp = tempDir();
    // A second Ctrl-C leaves its runs going by design (10-minute rows): forget them, so no spec
    // counts another spec's runs as its own (the closed-pipe spec waits for none in flight).
    fixture.emulator.expireAll();
    fixture.emulator.resetStats();
    fixture.emulator.setFaults({});
  });
  afterEach(() => temp.remove());

  /** Waits until window 0 is written and windows 1-3 run (windows 4-5 never submitted). */
  const threeRunning = (output: string) =>
    waitFor(
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

  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    it(`should handle ${signal} as Ctrl-C: cancel what runs, keep what finished, exit ${code}`, async () => {
      const input = temp.write("in.csv", csvText(["id", "ms"], slowRows(30)));
      const output = temp.file("out.csv");
      const cli = startCli(
        ["bulk", "sleep", input, "-o", output, "--chunk-size", "5", "--max-in-flight", "3", "-q"],
        cliEnv(fixture.emulator)
      );
      await threeRunning(output);
      cli.child.kill(signal);
      const result = await cli.exited;
      expect(result.signal).toBeNull();
      expect(result.code).toBe(code);
      expect(result.stderr).toContain(`resume with: spellrun resume ${output}.journal`);
      expect(fixture.emulator.stats.bulkGroupsCreated).toBe(4);
      expect(fixture.emulator.stats.cancelledGroups).toBe(3);
      const rows = readCsv(readFileSync(output, "utf8"));
      expect(rows.slice(0, 5).every((row) => row.status === "success")).toBeTrue();
      expect(rows.slice(5).every((row) => row.status === "cancelled")).toBeTrue();
      expect(existsSync(`${output}.journal.lock`)).toBeFalse();
    }, 60_000);
  }

  it("should stop starting and cancel what runs when stdout's reader goes, quietly", async () => {
    // 40 windows of quick rows: the reader leaves after the first bytes.
    const rows = Array.from({ length: 200 }, (_, i) => [i, 2_000]);
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const cli = startCli(
      ["bulk", "sleep", input, "-o", "-", "--chunk-size", "5", "--max-in-flight", "2", "-q"],
      cliEnv(fixture.emulator)
    );
    cli.child.stdout?.once("data", () => cli.child.stdout?.destroy());
    const result = await cli.exited;
    expect(result.code).toBe(141);
    expect(result.stderr).not.toContain("EPIPE");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(fixture.emulator.stats.bulkGroupsCreated).toBeLessThan(40);
    await waitFor(() => fixture.emulator.stats.inFlight === 0, 20_000, "nothing left running");
  }, 60_000);

  /** Runs `spellrun <args> | <reader>` in a shell (a pipe, as a user's; a spawned child's stdout is a socket). */
  async function piped(args: string[], reader: string) {
    const command = [process.execPath, "--import", "tsx", "cli/main.ts", ...args]
      .map((word) => `'${word}'`)
      .join(" ");
    // The command's exit code goes to stderr: a pipeline's own code is the reader's.
    const pipeline = spawn("sh", ["-c", `{ ${command}; echo "exit $?" >&2; } | ${reader}`], {
      cwd: REPO_ROOT,
      env: cliEnv(fixture.emulator),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    pipeline.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    pipeline.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve) => pipeline.on("close", () => resolve()));
    return { stdout, stderr, code: Number(/exit (\d+)/.exec(stderr)?.[1]) };
  }

  it("should notice a closed output pipe while nothing is written, and start no run after it", async () => {
    // Window 0 is quick (its rows and the header reach `head`, which exits); window 1 runs for
    // 20 s (scaled), so the next write would be 20 s later; windows 2-7 are quick.
    const rows = Array.from({ length: 40 }, (_, i) => [i, i >= 5 && i < 10 ? 1_000_000 : 10]);
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const started = Date.now();
    const result = await piped(
      ["bulk", "sleep", input, "-o", "-", "--chunk-size", "5", "--max-in-flight", "3", "-q"],
      "head -6"
    );
    // Windows 0-2 at the start, window 3 when window 0 was written (before `head` read it);
    // none once the reader had gone: windows 4-6 would start when window 1 is written.
    expect(fixture.emulator.stats.bulkGroupsCreated).toBe(4);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.code).toBe(141);
    expect(result.stdout.split("\n")[0]).toBe("id,ms,status,slept,error,other_outputs");
    expect(result.stderr).not.toContain("spellrun:");
    expect(fixture.emulator.stats.cancelledGroups).toBeGreaterThanOrEqual(1);
    await waitFor(() => fixture.emulator.stats.inFlight === 0, 20_000, "nothing left running");
  }, 60_000);

  it("should print no summary after `-o - | head -1` without --quiet: a closed pipe is quiet", async () => {
    const rows = Array.from({ length: 40 }, (_, i) => [i, 10]);
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const result = await piped(
      ["bulk", "sleep", input, "-o", "-", "--chunk-size", "5", "--max-in-flight", "2"],
      "head -1"
    );
    expect(result.code).toBe(141);
    expect(result.stdout).toBe("id,ms,status,slept,error,other_outputs\n");
    // Only what was printed before a row was written (the start notice, the first progress
    // line); nothing once the reader had gone: no summary line.
    const lines = result.stderr
      .split("\n")
      .filter((line) => line.startsWith("spellrun:") && !line.startsWith("spellrun: 0/40 rows"));
    expect(lines).toEqual(["spellrun: bulk: will start up to 40 new runs of spell 'sleep'"]);
    await waitFor(() => fixture.emulator.stats.inFlight === 0, 20_000, "nothing left running");
  }, 60_000);

  it("should start nothing when stdout's reader is gone before the first start", async () => {
    const rows = Array.from({ length: 40 }, (_, i) => [i, 10]);
    const input = temp.write("in.csv", csvText(["id", "ms"], rows));
    const result = await piped(["bulk", "sleep", input, "-o", "-", "--chunk-size", "5"], "true");
    expect(result.code).toBe(141);
    expect(fixture.emulator.stats.bulkGroupsCreated).toBe(0);
    // Quiet, as a closed pipe is: no stop note, no EPIPE, no stack trace.
    expect(result.stderr).not.toContain("cancelling");
    expect(result.stderr).not.toContain("EPIPE");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it("should end quietly when its terminal closes (SIGHUP), without node aborting", async () => {
    if (spawnSync("script", ["--version"]).error) {
      pending("script(1) (util-linux) is needed to give the command a terminal");
      return;
    }
    const input = temp.write("in.csv", csvText(["id", "ms"], slowRows(30)));
    const output = temp.file("out.csv");
    const errors = temp.file("stderr.txt");
    const command = [process.execPath, "--import", "tsx", "cli/main.ts", "bulk", "sleep"]
      .concat([input, "-o", output, "--chunk-size", "5", "--max-in-flight", "3"])
      .map((word) => `'${word}'`)
      .join(" ");
    // stderr goes to a file: the terminal is gone when the command writes its last lines.
    const terminal = spawn("script", ["-qfec", `${command} 2>'${errors}'`, "/dev/null"], {
      cwd: REPO_ROOT,
      env: cliEnv(fixture.emulator, { TERM: "xterm" }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    await threeRunning(output);
    // The terminal closes: the kernel sends SIGHUP to the command.
    terminal.kill("SIGKILL");
    await waitFor(
      () => readJournal(`${output}.journal`).some((r) => r.type === "end"),
      20_000,
      "the end record"
    );
    await waitFor(() => !existsSync(`${output}.journal.lock`), 20_000, "the lock released");
    // The process is gone once its stderr says no more (its last write is the abort, if any).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const stderr = readFileSync(errors, "utf8");
    expect(stderr).toContain("SIGHUP received");
    expect(stderr).not.toContain("Assertion failed");
    expect(stderr).not.toContain("Native stack trace");
    expect(fixture.emulator.stats.cancelledGroups).toBe(3);
  }, 60_000);

  it("should show the cursor again after a second Ctrl-C on a terminal", async () => {
    if (spawnSync("script", ["--version"]).error) {
      pending("script(1) (util-linux) is needed to give the command a terminal");
      return;
    }
    fixture.emulator.setFaults({ latencyMs: 30_000, endpoints: ["cancelBulk"] });
    const input = temp.write("in.csv", csvText(["id", "ms"], slowRows(15).slice(5)));
    const output = temp.file("out.csv");
    const command = [process.execPath, "--import", "tsx", "cli/main.ts", "bulk", "sleep"]
      .concat([input, "-o", output, "--chunk-size", "5"])
      .map((word) => `'${word}'`)
      .join(" ");
    // script(1) gives the command a terminal: the progress bar (and its hidden cursor) shows.
    const terminal = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd: REPO_ROOT,
      env: cliEnv(fixture.emulator, { TERM: "xterm" }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let screen = "";
    terminal.stdout.on("data", (chunk: Buffer) => (screen += chunk.toString()));
    const closed = new Promise<void>((resolve) => terminal.on("close", () => resolve()));
    await waitFor(() => screen.includes(HIDE_CURSOR), 20_000, "the progress bar");
    const lock = JSON.parse(readFileSync(`${output}.journal.lock`, "utf8")) as { pid: number };
    process.kill(lock.pid, "SIGINT");
    await waitFor(() => fixture.emulator.stats.requests.cancelBulk >= 1, 20_000, "a cancel");
    process.kill(lock.pid, "SIGINT");
    await closed;
    expect(screen.lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(screen.lastIndexOf(HIDE_CURSOR));
  }, 60_000);
});
