import { setTimeout as sleep } from "node:timers/promises";
import { Step } from "./Step.js";
import { broken, checkProcessEnd, checkStarts } from "./cliInvariants.js";
import { PIPE_SPELL, countIn, type CliModel, type CliWorld } from "./cliModelState.js";
import { startProcess } from "./cliProcess.js";
import { mappingFlags } from "./modelTable.js";
import { relative } from "./cliSteps.js";
import { COMMAND_LIMIT_MS, lastLine } from "./runCli.js";

/** `spellrun bulk … -o - | head -1`: the reader goes away after one line. */
export class ClosedPipeStep extends Step {
  readonly name = "closed output pipe";
  // A new job of the input as generated: its starts are checked against those rows.
  check(model: Readonly<CliModel>): boolean {
    return model.input === "original";
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    const { table } = world;
    model.pipeJobs++;
    const args = [
      "bulk",
      PIPE_SPELL,
      relative(world, world.inputPath),
      "-o",
      "-",
      "--chunk-size",
      "1",
      "--max-in-flight",
      "1",
      "--quiet",
      ...(table.delimiter === ";" ? ["--delimiter", ";"] : []),
      ...mappingFlags(table),
      // The input as generated is valid when read in its encoding (seed 387186290: a
      // windows-1252 file without the flag was bad input, exit 3, before any pipe closed).
      ...(table.encoding !== "utf8" ? ["--encoding", table.encoding] : []),
    ];
    // A shell's pipe, as a user's (a spawned child's stdout would be a socket); the command's
    // own exit code goes to stderr, since a pipeline's is the reader's.
    const command = ["spellrun", ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`);
    const shell = `{ ${command.join(" ")}; echo "spellrun exit $?" >&2; } | head -1`;
    const started = startProcess(world.launcher, { shell, cwd: world.root });
    world.running.add(started);
    const timer = setTimeout(() => started.child.kill("SIGKILL"), COMMAND_LIMIT_MS);
    const result = await started.exited;
    clearTimeout(timer);
    world.running.delete(started);
    const code = Number(/spellrun exit (\d+)/.exec(result.stderr)?.[1]);
    countIn(world.coverage.exitCodes, String(code));
    world.steps.push(`    → exit ${code}: ${lastLine(result)}`);
    checkProcessEnd(world, { ...result, code, signal: null }, false);
    // All rows may be written before the reader goes (exit 0); otherwise 141, quietly. Under a
    // service fault the service may end the job first (seeds 387122230, 387289440): refused,
    // nothing started (4), or failed after starts (5), as docs/cli.md's exit codes say.
    const serviceEnded = model.faults !== "none" && (code === 4 || code === 5);
    if ((code !== 0 && code !== 141 && !serviceEnded) || result.stderr.includes("EPIPE")) {
      broken(
        "a closed pipe stops the job",
        `bulk -o - | head -1: exit ${code}, ${lastLine(result)}`
      );
    }
    await sleep(20);
    const inFlight = world.emulator.stats.inFlight;
    if (inFlight > 0) {
      broken(
        "a closed pipe stops the job",
        `${inFlight} runs left in flight after exit ${result.code ?? result.signal}`
      );
    }
    checkStarts(model, world, model.pipeJobs);
  }
  toString(): string {
    return "bulk -o - | head -1";
  }
}
