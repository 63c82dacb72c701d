import type { RunningEmulator } from "../../../emulator/startEmulator.js";
import type { CliLauncher, StartedProcess } from "./cliProcess.js";
import type { ModelTable } from "./modelTable.js";

/** The spell of the model's file jobs, and of its closed-pipe jobs (counted apart). */
export const JOB_SPELL = "checksum";
export const PIPE_SPELL = "echo";

/** Faults the model can put the service in (see `faultOptionsOf`). */
export const FAULT_NAMES = [
  "none",
  "bulkStart408",
  "bulkStart502",
  "bulkStartDrop",
  "bulkStart503",
  "body413",
  "reads429Storm",
  "reads500",
  "unknownStates",
  "shortBulkRuns",
] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

/** How a command's process is interrupted (none: left to finish). */
export const INTERRUPTIONS = ["none", "sigint", "sigint2", "sigterm", "sighup", "kill9"] as const;
export type Interruption = (typeof INTERRUPTIONS)[number];

/**
 * What the model expects: the state of the input file, the job, and how many starts each row
 * may have had at the service.
 */
export interface CliModel {
  /** The input file now. */
  input: "original" | "edited" | "truncated";
  job?: { viaStdin: boolean; outputFormat: "csv" | "jsonl" };
  /** Row id → starts the user has allowed (a job: 1; a retry of a row that did not succeed: +1). */
  allowance: Map<string, number>;
  /** Row id → digest of a success already in the output: paid for, never to be thrown away. */
  paid: Map<string, string>;
  /** The last command the CLI printed as a next step. */
  hint?: string;
  faults: FaultName;
  /** The job's bulk named the input's encoding (`--encoding`). */
  encodingDeclared: boolean;
  /** Closed-pipe jobs run so far: each may start every row once under PIPE_SPELL. */
  pipeJobs: number;
}

/** The world the commands act on: the emulator, the files and the CLI. */
export interface CliWorld {
  emulator: RunningEmulator;
  launcher: CliLauncher;
  /** The sequence's folder: the commands run here; data/ and out/ below it. */
  root: string;
  inputPath: string;
  outputPath: (format: "csv" | "jsonl") => string;
  table: ModelTable;
  /** Exit codes of the table in docs/cli.md. */
  exitCodes: ReadonlySet<number>;
  /** The steps so far, for the report. */
  steps: string[];
  coverage: Coverage;
  /** CLI processes still running (killed when a sequence ends early). */
  running: Set<StartedProcess>;
}

/** What the suite has exercised, for its figures. */
export interface Coverage {
  sequences: number;
  steps: number;
  actions: Record<string, number>;
  faults: Record<string, number>;
  interruptions: Record<string, number>;
  inputs: Record<string, number>;
  exitCodes: Record<string, number>;
}

/** An empty coverage record. */
export function emptyCoverage(): Coverage {
  return {
    sequences: 0,
    steps: 0,
    actions: {},
    faults: {},
    interruptions: {},
    inputs: {},
    exitCodes: {},
  };
}

/** Adds one to a counter of a coverage record. */
export function countIn(counter: Record<string, number>, key: string): void {
  counter[key] = (counter[key] ?? 0) + 1;
}
