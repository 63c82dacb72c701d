import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { startEmulator } from "../../../emulator/startEmulator.js";
import { documentedExitCodes, ignoreInvariants } from "./cliInvariants.js";
import {
  countIn,
  emptyCoverage,
  type CliModel,
  type CliWorld,
  type Coverage,
} from "./cliModelState.js";
import { createLauncher, signal } from "./cliProcess.js";
import { bulkStepArbitrary, stepArbitraries } from "./stepArbitraries.js";
import { describeTable, modelTableArbitrary, tableBytes, type ModelTable } from "./modelTable.js";
import { REPO_ROOT } from "../support/spawnCli.js";

/**
 * How much the model suite generates. FAST runs in `npm test`; LONG in
 * `npm run test:model-long`.
 */
export interface ModelProfile {
  name: string;
  /** Sequences to run. */
  runs: number;
  /** Steps after the first bulk, at most. */
  maxSteps: number;
  minRows: number;
  maxRows: number;
  /** The command that runs this profile (in the replay line a failure prints). */
  command: string;
  /** Stop generating (and shrinking) after this long; what ran is reported. */
  timeLimitMs: number;
}

/** `npm test`: a few short sequences. */
export const FAST_PROFILE: ModelProfile = {
  name: "fast",
  runs: 4,
  maxSteps: 5,
  minRows: 2,
  maxRows: 6,
  command:
    "node --import tsx node_modules/jasmine/bin/jasmine.js --config=test/jasmine.json test/cli/model/cliModel.spec.ts",
  timeLimitMs: 60_000,
};

/** `npm run test:model-long`: thousands of sequences (hours on a 2-core machine). */
export const LONG_PROFILE: ModelProfile = {
  name: "long",
  runs: 2000,
  maxSteps: 10,
  minRows: 2,
  maxRows: 12,
  command: "npm run test:model-long",
  timeLimitMs: 6 * 3_600_000,
};

/** What a profile run found. */
export interface ModelReport {
  profile: string;
  seed: number;
  coverage: Coverage;
  ms: number;
  /** The failure with its seed, replay path and shrunk sequence; undefined when every sequence held. */
  failure?: string;
  interrupted: boolean;
  /** Sequences generated (the rest of `coverage.sequences` were shrinking runs). */
  generated: number;
  shrinks: number;
}

/**
 * The profile named by the environment: `SPELLRUN_MODEL_RUNS` sequences (and
 * `SPELLRUN_MODEL_STEPS`, `SPELLRUN_MODEL_TIME_LIMIT_S`) over a base profile.
 * @param base the profile
 * @param env the environment
 * @return the profile to run
 */
export function profileFromEnv(
  base: ModelProfile,
  env: NodeJS.ProcessEnv = process.env
): ModelProfile {
  const number = (name: string) =>
    env[name] !== undefined && env[name] !== "" ? Number(env[name]) : undefined;
  return {
    ...base,
    runs: number("SPELLRUN_MODEL_RUNS") ?? base.runs,
    maxSteps: number("SPELLRUN_MODEL_STEPS") ?? base.maxSteps,
    timeLimitMs: (number("SPELLRUN_MODEL_TIME_LIMIT_S") ?? base.timeLimitMs / 1000) * 1000,
  };
}

/**
 * Runs the model: random sequences of user actions and service faults against the real
 * `spellrun` and the emulator, the invariants checked after every step. A failure is shrunk
 * (within the time limit) and reported with its seed and path; `SPELLRUN_MODEL_SEED` (and
 * `SPELLRUN_MODEL_PATH`) replay it.
 * @param profile how much to generate
 * @param env the environment (seed, path)
 * @return the report
 */
export async function runCliModel(
  profile: ModelProfile,
  env: NodeJS.ProcessEnv = process.env
): Promise<ModelReport> {
  const seed = env.SPELLRUN_MODEL_SEED
    ? Number(env.SPELLRUN_MODEL_SEED)
    : Date.now() % 2_147_483_647;
  const replayPath = env.SPELLRUN_MODEL_PATH || undefined;
  ignoreInvariants(env.SPELLRUN_MODEL_IGNORE);
  const began = Date.now();
  const coverage = emptyCoverage();
  const exitCodes = documentedExitCodes(
    readFileSync(path.join(REPO_ROOT, "docs", "cli.md"), "utf8")
  );
  // 300 ms per checksum run: Ctrl-C and kills land while bulk runs are in flight.
  const emulator = await startEmulator({ timeScale: 0.1, countBulkInputs: true });
  const launcher = createLauncher(emulator);
  // The sequence running now: a time limit may end fc.check before it ends.
  let active: Promise<void> | undefined;
  let failingSteps: string[] = [];
  let failingTable = "";
  const property = fc.asyncProperty(
    modelTableArbitrary(profile.minRows, profile.maxRows),
    bulkStepArbitrary,
    fc.commands(stepArbitraries, { maxCommands: profile.maxSteps, size: "max" }),
    (table, first, steps) => (active = runSequence(table, first, steps))
  );
  async function runSequence(
    table: ModelTable,
    first: fc.AsyncCommand<CliModel, CliWorld>,
    steps: Iterable<fc.AsyncCommand<CliModel, CliWorld>>
  ): Promise<void> {
    coverage.sequences++;
    countIn(
      coverage.inputs,
      table.format === "jsonl" ? "jsonl" : table.delimiter === ";" ? "csv ;" : "csv ,"
    );
    if (table.bom) countIn(coverage.inputs, "BOM");
    if (table.crlf) countIn(coverage.inputs, "CRLF");
    if (table.encoding !== "utf8") countIn(coverage.inputs, table.encoding);
    const root = mkdtempSync(path.join(tmpdir(), "spellrun-model-"));
    mkdirSync(path.join(root, "data"));
    mkdirSync(path.join(root, "out"));
    const inputPath = path.join(root, "data", `in.${table.format}`);
    writeFileSync(inputPath, tableBytes(table));
    emulator.setFaults({});
    emulator.expireAll();
    emulator.resetStats();
    const world: CliWorld = {
      emulator,
      launcher,
      root,
      inputPath,
      outputPath: (format) => path.join(root, "out", `out.${format}`),
      table,
      exitCodes,
      steps: [],
      coverage,
      running: new Set(),
    };
    const model: CliModel = {
      input: "original",
      allowance: new Map(),
      paid: new Map(),
      faults: "none",
      pipeJobs: 0,
      encodingDeclared: false,
    };
    try {
      await fc.asyncModelRun(() => ({ model, real: world }), [first, ...steps]);
    } catch (error) {
      failingSteps = world.steps;
      failingTable = describeTable(table);
      throw error;
    } finally {
      if (env.SPELLRUN_MODEL_VERBOSE === "1") {
        console.log(
          `sequence ${coverage.sequences}: ${describeTable(table)}\n${world.steps.join("\n")}`
        );
      }
      for (const started of world.running) {
        const pid = started.cliPid();
        if (pid !== undefined) signal(pid, "SIGKILL");
        started.child.kill("SIGKILL");
      }
      if (env.SPELLRUN_MODEL_KEEP === "1") console.log(`kept ${root}`);
      else rmSync(root, { recursive: true, force: true });
    }
  }
  try {
    const details = await fc.check(property, {
      seed,
      numRuns: profile.runs,
      ...(replayPath ? { path: replayPath } : {}),
      interruptAfterTimeLimit: profile.timeLimitMs,
      markInterruptAsFailure: false,
      endOnFailure: env.SPELLRUN_MODEL_SHRINK === "0",
    });
    const report: ModelReport = {
      profile: profile.name,
      seed,
      coverage,
      ms: Date.now() - began,
      interrupted: details.interrupted,
      generated: details.numRuns,
      shrinks: details.numShrinks,
    };
    if (details.failed) {
      const [table, first, steps] = details.counterexample ?? [];
      report.failure = [
        `The model of spellrun failed (profile ${profile.name}, seed ${seed}, path "${details.counterexamplePath}").`,
        // The same profile (rows and steps) and runs: the seed and path only replay the case there.
        `Replay: SPELLRUN_MODEL_SEED=${seed} SPELLRUN_MODEL_PATH="${details.counterexamplePath}" SPELLRUN_MODEL_RUNS=${profile.runs} SPELLRUN_MODEL_STEPS=${profile.maxSteps} ${profile.command}`,
        `Input: ${table ? describeTable(table) : failingTable}`,
        `Input rows: ${table ? JSON.stringify(table.rows) : "?"}`,
        `Shrunk sequence: ${first ? String(first) : "?"} | ${steps ? String(steps) : "?"}`,
        `Broken: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
        `Steps of the last failing run:`,
        ...failingSteps,
      ].join("\n");
    }
    return report;
  } finally {
    await active?.catch(() => undefined);
    await emulator.close();
    rmSync(path.dirname(launcher.bin), { recursive: true, force: true });
  }
}

/**
 * The figures of a report, one line each.
 * @param report the report
 * @return the text
 */
export function describeReport(report: ModelReport): string {
  const { coverage } = report;
  const counts = (record: Record<string, number>) =>
    Object.entries(record)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, count]) => `${key} ${count}`)
      .join(", ");
  return [
    `spellrun model (${report.profile}, seed ${report.seed}): ${report.generated} sequences generated, ${coverage.sequences} run (${report.shrinks} shrink steps), ${coverage.steps} steps in ${(report.ms / 1000).toFixed(1)} s${report.interrupted ? " (stopped at the time limit)" : ""}`,
    `  actions        ${counts(coverage.actions)}`,
    `  interruptions  ${counts(coverage.interruptions)}`,
    `  faults         ${counts(coverage.faults)}`,
    `  inputs         ${counts(coverage.inputs)}`,
    `  exit codes     ${counts(coverage.exitCodes)}`,
  ].join("\n");
}
