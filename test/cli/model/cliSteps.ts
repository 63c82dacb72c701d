import { existsSync, readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { Step, type JobParams } from "./Step.js";
import {
  broken,
  checkOutput,
  checkStarts,
  jobStarts,
  journalComplete,
  printedNextStep,
} from "./cliInvariants.js";
import { JOB_SPELL, type CliModel, type CliWorld } from "./cliModelState.js";
import type { ProcessResult } from "./cliProcess.js";
import { mappingFlags } from "./modelTable.js";
import { runCli, lastLine, type Ran } from "./runCli.js";

/** Statuses `retry` runs again (RETRYABLE_STATUSES of the core). */
export const RETRIED = new Set(["failure", "error", "cancelled", "expired"]);

/** The journal of the model's job (next to its output). */
export function journalOf(world: CliWorld, model: CliModel): string {
  return `${world.outputPath(model.job?.outputFormat ?? "csv")}.journal`;
}

/** Relative to the commands' folder, as a user types it. */
export function relative(world: CliWorld, file: string): string {
  return file.startsWith(`${world.root}/`) ? file.slice(world.root.length + 1) : file;
}

/** The input as it is on disk now (what a user pipes into a resume of a stdin job). */
export function currentInput(world: CliWorld): Buffer {
  return existsSync(world.inputPath) ? readFileSync(world.inputPath) : Buffer.alloc(0);
}

/** Statuses of the job's output, by row id (the tool's own column by position). */
export function outputStatuses(world: CliWorld, model: CliModel): Map<string, string> {
  const statuses = new Map<string, string>();
  if (!model.job) return statuses;
  const file = world.outputPath(model.job.outputFormat);
  if (!existsSync(file)) return statuses;
  const text = readFileSync(file, "utf8");
  try {
    if (model.job.outputFormat === "jsonl") {
      for (const line of text.split("\n").filter((l) => l !== "")) {
        const value = JSON.parse(line) as { input: { id: unknown }; status: string };
        statuses.set(String(value.input.id), value.status);
      }
    } else {
      const [header, ...data] = parse(text, { relax_column_count: true }) as string[][];
      const k = world.table.columns.length;
      const idAt = header.slice(0, k).indexOf("id");
      for (const cells of data) statuses.set(cells[idAt], cells[k]);
    }
  } catch {
    // Checked by the output invariant.
  }
  return statuses;
}

/** Starts the user allows a resume or retry (`--rerun-unknown`: unknown rows too). */
export function allowFor(
  world: CliWorld,
  model: CliModel,
  command: "resume" | "retry",
  rerunUnknown: boolean
): void {
  const statuses = outputStatuses(world, model);
  for (const row of world.table.rows) {
    const id = String(row.id);
    const status = statuses.get(id);
    const again =
      (command === "retry" && (status === undefined || RETRIED.has(status))) ||
      (rerunUnknown && (status === undefined || status === "unknown"));
    if (again) model.allowance.set(id, (model.allowance.get(id) ?? 0) + 1);
  }
}

/** After every step: starts, output, and the next step the CLI printed. */
export function afterStep(model: CliModel, world: CliWorld, results: ProcessResult[]): void {
  for (const result of results) {
    const hint = printedNextStep(result);
    if (hint !== undefined) model.hint = hint;
  }
  checkStarts(model, world, model.pipeJobs);
  checkOutput(model, world);
}

/** Whether the input as the command will read it is a valid table, as declared. */
export function validInput(
  model: CliModel,
  world: CliWorld,
  feed: "full" | "empty" | "short" = "full"
): boolean {
  return (
    model.input === "original" &&
    feed === "full" &&
    (world.table.encoding === "utf8" || model.encodingDeclared)
  );
}

/** A changed input must be refused by a resume or retry of a file job: nothing started. */
export function expectRefusedIfChanged(
  model: CliModel,
  world: CliWorld,
  before: number,
  what: string
): void {
  if (model.input === "original" || model.job?.viaStdin) return;
  const started = jobStarts(world) - before;
  if (started > 0) {
    broken(
      "a changed input is refused",
      `${what} started ${started} runs after the input was ${model.input}`
    );
  }
}

/** A command that claims success (exit 0) left a complete job, every row a success. */
export function expectClaims(model: CliModel, world: CliWorld, ran: Ran, what: string): void {
  if (!model.job || ran.result.code !== 0 || ran.delivered !== "none") return;
  const journal = journalOf(world, model);
  if (!journalComplete(journal)) {
    broken(
      "exit codes agree with docs/cli.md",
      `${what} exited 0, the journal does not say complete`
    );
  }
  const statuses = outputStatuses(world, model);
  const failed = [...statuses.entries()].filter(([, status]) => status !== "success");
  if (failed.length > 0 || statuses.size !== world.table.rows.length) {
    broken(
      "exit codes agree with docs/cli.md",
      `${what} exited 0 with ${statuses.size} of ${world.table.rows.length} rows, not all success (${failed.map(([id, s]) => `${id}:${s}`).join(" ")})`
    );
  }
}

/** `spellrun bulk` of the input file, or of the same bytes piped into stdin. */
export class BulkStep extends Step {
  readonly name: string;
  constructor(
    readonly params: JobParams & {
      stdin: boolean;
      outputFormat: "csv" | "jsonl";
      chunkSize: number;
      maxInFlight: number;
      declareEncoding: boolean;
      /** A stdin job given `--max-runs` one less than its rows: it stops at the budget. */
      overBudget: boolean;
    }
  ) {
    super();
    this.name = params.stdin
      ? params.overBudget
        ? "bulk (stdin, over --max-runs)"
        : "bulk (stdin)"
      : "bulk (file)";
  }
  check(model: Readonly<CliModel>): boolean {
    return model.job === undefined;
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    const p = this.params;
    const { table } = world;
    const tty = p.tty && !p.stdin;
    model.job = { viaStdin: p.stdin, outputFormat: p.outputFormat };
    model.encodingDeclared = p.declareEncoding;
    for (const row of table.rows)
      model.allowance.set(String(row.id), (model.allowance.get(String(row.id)) ?? 0) + 1);
    const output = relative(world, world.outputPath(p.outputFormat));
    const args = [
      "bulk",
      JOB_SPELL,
      p.stdin ? "-" : relative(world, world.inputPath),
      ...(p.stdin ? ["--format", table.format] : []),
      "-o",
      output,
      "--chunk-size",
      String(p.chunkSize),
      "--max-in-flight",
      String(p.maxInFlight),
      ...(table.delimiter === ";" ? ["--delimiter", ";"] : []),
      ...mappingFlags(table),
      ...(table.encoding !== "utf8" && p.declareEncoding ? ["--encoding", table.encoding] : []),
      ...(tty ? [] : ["--quiet"]),
    ];
    const maxRuns = table.rows.length - 1;
    const overBudget = p.stdin && p.overBudget && maxRuns >= 1;
    if (overBudget) args.push("--max-runs", String(maxRuns));
    const ran = await runCli(
      world,
      { args, tty, ...(p.stdin ? { stdin: currentInput(world) } : {}) },
      p.interruption,
      p.delayMs,
      journalOf(world, model),
      validInput(model, world)
    );
    afterStep(model, world, [ran.result]);
    expectClaims(model, world, ran, "bulk");
    if (overBudget) expectBudgetStop(ran, maxRuns);
  }
  toString(): string {
    const p = this.params;
    return `bulk ${p.stdin ? `stdin${p.overBudget ? " over --max-runs" : ""}` : "file"} -o out.${p.outputFormat} chunk ${p.chunkSize} in-flight ${p.maxInFlight}${p.tty ? " tty" : ""}${p.declareEncoding ? " +encoding" : ""}${interruptionText(p)}`;
  }
}

/** A stdin job stopped by its `--max-runs` says so, with the budget's exit code (2), never as a bad input. */
function expectBudgetStop(ran: Ran, maxRuns: number): void {
  const { code, stderr } = ran.result;
  if (ran.delivered !== "none" || !stderr.includes(`more than --max-runs ${maxRuns}`)) return;
  if (code !== 2 || !stderr.includes("stopped at the budget") || /is not complete/.test(stderr)) {
    broken(
      "a budget stop reads as the budget's",
      `bulk of stdin over --max-runs ${maxRuns}: exit ${code}, ${lastLine(ran.result)}`
    );
  }
}

function interruptionText(p: JobParams): string {
  return p.interruption === "none" ? "" : ` then ${p.interruption} after ${p.delayMs} ms`;
}

/** `spellrun resume <journal>` (stdin jobs get the input again, nothing, or its first lines). */
export class ResumeStep extends Step {
  readonly name = "resume";
  constructor(
    readonly params: JobParams & { rerunUnknown: boolean; stdinFeed: "full" | "empty" | "short" }
  ) {
    super();
  }
  check(model: Readonly<CliModel>): boolean {
    return model.job !== undefined;
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    const p = this.params;
    const journal = journalOf(world, model);
    const tty = p.tty && !model.job?.viaStdin;
    if (p.rerunUnknown) allowFor(world, model, "resume", true);
    const before = jobStarts(world);
    const stdin = stdinFor(world, model, p.stdinFeed);
    const ran = await runCli(
      world,
      {
        args: [
          "resume",
          relative(world, journal),
          ...(p.rerunUnknown ? ["--rerun-unknown"] : []),
          ...(tty ? [] : ["--quiet"]),
        ],
        tty,
        stdin,
      },
      p.interruption,
      p.delayMs,
      journal,
      validInput(model, world, model.job?.viaStdin ? p.stdinFeed : "full")
    );
    afterStep(model, world, [ran.result]);
    expectRefusedIfChanged(model, world, before, "resume");
    expectClaims(model, world, ran, "resume");
  }
  toString(): string {
    const p = this.params;
    return `resume${p.rerunUnknown ? " --rerun-unknown" : ""} (stdin ${p.stdinFeed})${p.tty ? " tty" : ""}${interruptionText(p)}`;
  }
}

function stdinFor(world: CliWorld, model: CliModel, feed: "full" | "empty" | "short"): Buffer {
  if (!model.job?.viaStdin || feed === "empty") return Buffer.alloc(0);
  const bytes = currentInput(world);
  if (feed === "full") return bytes;
  const lines = bytes.toString("latin1").split("\n");
  return Buffer.from(lines.slice(0, 2).join("\n") + "\n", "latin1");
}

/** `spellrun retry <journal>`. */
export class RetryStep extends Step {
  readonly name = "retry";
  constructor(readonly params: JobParams & { rerunUnknown: boolean }) {
    super();
  }
  check(model: Readonly<CliModel>): boolean {
    return model.job !== undefined;
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    const p = this.params;
    const journal = journalOf(world, model);
    allowFor(world, model, "retry", p.rerunUnknown);
    const before = jobStarts(world);
    const ran = await runCli(
      world,
      {
        args: [
          "retry",
          relative(world, journal),
          ...(p.rerunUnknown ? ["--rerun-unknown"] : []),
          "--quiet",
        ],
        stdin: stdinFor(world, model, "full"),
      },
      p.interruption,
      p.delayMs,
      journal,
      validInput(model, world)
    );
    afterStep(model, world, [ran.result]);
    expectRefusedIfChanged(model, world, before, "retry");
    expectClaims(model, world, ran, "retry");
  }
  toString(): string {
    const p = this.params;
    return `retry${p.rerunUnknown ? " --rerun-unknown" : ""}${interruptionText(p)}`;
  }
}

/** Two `spellrun resume` of one journal at once (cron and a manual run). */
export class TwoResumesStep extends Step {
  readonly name = "two resumes at once";
  check(model: Readonly<CliModel>): boolean {
    return model.job !== undefined && !model.job.viaStdin;
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    const journal = journalOf(world, model);
    const args = ["resume", relative(world, journal), "--quiet"];
    const before = jobStarts(world);
    const [first, second] = await Promise.all([
      runCli(world, { args }, "none", 0, journal),
      runCli(world, { args }, "none", 0, journal),
    ]);
    afterStep(model, world, [first.result, second.result]);
    expectRefusedIfChanged(model, world, before, "two resumes");
  }
  toString(): string {
    return "two resumes at once";
  }
}
