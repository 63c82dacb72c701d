import { setTimeout as sleep } from "node:timers/promises";
import { broken, checkProcessEnd, journalRecords } from "./cliInvariants.js";
import { countIn, type CliWorld, type Interruption } from "./cliModelState.js";
import { signal, startProcess, type ProcessResult, type StartedProcess } from "./cliProcess.js";

/** Longest a command may take before the model calls it hung. */
export const COMMAND_LIMIT_MS = 60_000;

/** What a command-line step of the model did. */
export interface Ran {
  result: ProcessResult;
  /** The interruption actually delivered (none when the process had ended first). */
  delivered: Interruption;
}

async function waitForGroup(
  journal: string,
  process: StartedProcess,
  limitMs: number
): Promise<void> {
  let ended = false;
  void process.exited.then(() => (ended = true));
  const deadline = Date.now() + limitMs;
  while (!ended && Date.now() < deadline) {
    if (journalRecords(journal).some((record) => record.type === "group")) return;
    await sleep(20);
  }
}

/**
 * Runs one CLI process, interrupts it as asked once a bulk run is recorded (plus `delayMs`),
 * and checks how it ended.
 */
export async function runCli(
  world: CliWorld,
  run: { args?: string[]; shell?: string; stdin?: Buffer; tty?: boolean },
  interruption: Interruption,
  delayMs: number,
  journal: string,
  validInput = false
): Promise<Ran> {
  const started = startProcess(world.launcher, { ...run, cwd: world.root });
  world.running.add(started);
  let delivered: Interruption = "none";
  let ended = false;
  void started.exited.then(() => (ended = true));
  if (interruption !== "none") {
    await waitForGroup(journal, started, 10_000);
    await sleep(delayMs);
    const pid = started.cliPid();
    if (!ended && pid !== undefined) {
      delivered = interruption;
      if (interruption === "sigint") started.ctrlC();
      else if (interruption === "sigint2") {
        started.ctrlC();
        await sleep(30);
        started.ctrlC();
      } else if (interruption === "sigterm") signal(pid, "SIGTERM");
      else if (interruption === "sighup") signal(pid, "SIGHUP");
      else signal(pid, "SIGKILL");
    }
  }
  const timer = setTimeout(() => {
    const pid = started.cliPid();
    if (pid !== undefined) signal(pid, "SIGKILL");
    started.child.kill("SIGKILL");
  }, COMMAND_LIMIT_MS);
  const began = Date.now();
  const result = await started.exited;
  clearTimeout(timer);
  world.running.delete(started);
  if (Date.now() - began >= COMMAND_LIMIT_MS) {
    broken("every command ends", `${run.shell ?? run.args?.join(" ")} ran for a minute`);
  }
  countIn(world.coverage.interruptions, delivered);
  countIn(world.coverage.exitCodes, String(result.code ?? result.signal));
  world.steps.push(
    `    → exit ${result.code ?? result.signal}${delivered === "none" ? "" : ` after ${delivered}`}: ${lastLine(result)}`
  );
  checkProcessEnd(world, result, delivered === "kill9");
  if (validInput && result.code === 3) {
    broken(
      "a valid input is accepted",
      `exit 3 (bad input) for ${world.table.format} input: ${lastLine(result)}`
    );
  }
  // Ctrl-C, SIGTERM and SIGHUP cancel what is in flight; nothing stays running at the service.
  if (delivered === "sigint" || delivered === "sigterm" || delivered === "sighup") {
    await sleep(20);
    const inFlight = world.emulator.stats.inFlight;
    if (inFlight > 0) {
      broken(
        "a cancel leaves nothing running",
        `${inFlight} runs still in flight after ${delivered} and exit ${result.code ?? result.signal}`
      );
    }
  }
  return { result, delivered };
}

/** The last line a command wrote to stderr, quoted and cut at 200 characters, for the log. */
export function lastLine(result: ProcessResult): string {
  const lines = `${result.stderr}`
    .trim()
    .split("\n")
    .filter((line) => line.trim() !== "");
  return JSON.stringify((lines[lines.length - 1] ?? "").slice(0, 200));
}
