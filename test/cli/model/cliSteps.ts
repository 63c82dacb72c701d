import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import type { FaultOptions } from "../../../emulator/startEmulator.js";
import {
  broken,
  checkOutput,
  checkProcessEnd,
  checkStarts,
  jobStarts,
  journalComplete,
  journalRecords,
  printedNextStep,
} from "./cliInvariants.js";
import {
  FAULT_NAMES,
  INTERRUPTIONS,
  JOB_SPELL,
  PIPE_SPELL,
  countIn,
  type CliModel,
  type CliWorld,
  type FaultName,
  type Interruption,
} from "./cliModelState.js";
import { signal, startProcess, type ProcessResult, type StartedProcess } from "./cliProcess.js";
import { mappingFlags, tableBytes } from "./modelTable.js";

/** Statuses `retry` runs again (RETRYABLE_STATUSES of the core). */
const RETRIED = new Set(["failure", "error", "cancelled", "expired"]);

/** Longest a command may take before the model calls it hung. */
const COMMAND_LIMIT_MS = 60_000;

/** What a command-line step of the model did. */
interface Ran {
  result: ProcessResult;
  /** The interruption actually delivered (none when the process had ended first). */
  delivered: Interruption;
}

function journalOf(world: CliWorld, model: CliModel): string {
  return `${world.outputPath(model.job?.outputFormat ?? "csv")}.journal`;
}

/** Relative to the commands' folder, as a user types it. */
function relative(world: CliWorld, file: string): string {
  return file.startsWith(`${world.root}/`) ? file.slice(world.root.length + 1) : file;
}

/** The input as it is on disk now (what a user pipes into a resume of a stdin job). */
function currentInput(world: CliWorld): Buffer {
  return existsSync(world.inputPath) ? readFileSync(world.inputPath) : Buffer.alloc(0);
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
async function runCli(
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

function lastLine(result: ProcessResult): string {
  const lines = `${result.stderr}`
    .trim()
    .split("\n")
    .filter((line) => line.trim() !== "");
  return JSON.stringify((lines[lines.length - 1] ?? "").slice(0, 200));
}

/** Statuses of the job's output, by row id (the tool's own column by position). */
function outputStatuses(world: CliWorld, model: CliModel): Map<string, string> {
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
function allowFor(
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
function afterStep(model: CliModel, world: CliWorld, results: ProcessResult[]): void {
  for (const result of results) {
    const hint = printedNextStep(result);
    if (hint !== undefined) model.hint = hint;
  }
  checkStarts(model, world, model.pipeJobs);
  checkOutput(model, world);
}

/** Whether the input as the command will read it is a valid table, as declared. */
function validInput(
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
function expectRefusedIfChanged(
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
function expectClaims(model: CliModel, world: CliWorld, ran: Ran, what: string): void {
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

/** Parameters of a job-running step. */
interface JobParams {
  interruption: Interruption;
  delayMs: number;
  tty: boolean;
}

abstract class Step implements fc.AsyncCommand<CliModel, CliWorld> {
  abstract readonly name: string;
  abstract check(model: Readonly<CliModel>): boolean;
  abstract act(model: CliModel, world: CliWorld): Promise<void>;
  abstract toString(): string;
  async run(model: CliModel, world: CliWorld): Promise<void> {
    world.coverage.steps++;
    countIn(world.coverage.actions, this.name);
    world.steps.push(
      `${world.steps.filter((s) => !s.startsWith(" ")).length + 1}. ${this.toString()}`
    );
    await this.act(model, world);
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

/** `spellrun status <journal>`: exit 0 exactly when the journal says complete. */
export class StatusStep extends Step {
  readonly name = "status";
  check(model: Readonly<CliModel>): boolean {
    return model.job !== undefined;
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    const journal = journalOf(world, model);
    const ran = await runCli(
      world,
      { args: ["status", relative(world, journal)] },
      "none",
      0,
      journal
    );
    const complete = journalComplete(journal);
    if (
      existsSync(journal) &&
      (ran.result.code === 0) !== complete &&
      (ran.result.code === 0 || ran.result.code === 1)
    ) {
      broken(
        "exit codes agree with docs/cli.md",
        `status exited ${ran.result.code}, the journal ${complete ? "says" : "does not say"} complete`
      );
    }
    expectSubmittedRows(journal, ran.result.stdout);
    afterStep(model, world, [ran.result]);
  }
  toString(): string {
    return "status";
  }
}

/**
 * Status's "N submitted" is the rows sent to the service (each window's latest intent: its `sent`
 * rows, all of them when absent), never the rows a retry copied from the earlier output.
 */
function expectSubmittedRows(journal: string, stdout: string): void {
  const shown = /^rows .*?; (\d+) submitted in/m.exec(stdout);
  if (!shown) return;
  const intents = new Map<number, number>();
  for (const record of journalRecords(journal)) {
    if (record.type !== "intent") continue;
    const sent = (record.sent as number | undefined) ?? (record.count as number);
    intents.set(record.window as number, sent);
  }
  const sent = [...intents.values()].reduce((sum, count) => sum + count, 0);
  if (Number(shown[1]) !== sent) {
    broken(
      "status counts the journal right",
      `status says ${shown[1]} submitted, the journal's intents sent ${sent} rows`
    );
  }
}

/** Runs the last next step the CLI printed, exactly as printed (`sh -c`). */
export class FollowHintStep extends Step {
  readonly name = "follow the printed next step";
  check(model: Readonly<CliModel>): boolean {
    return model.job !== undefined && model.hint !== undefined;
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    const hint = model.hint as string;
    world.steps.push(`    $ ${hint}`);
    const command = /^spellrun retry\b/.test(hint)
      ? "retry"
      : /^spellrun resume\b/.test(hint)
        ? "resume"
        : undefined;
    const rerunUnknown = hint.includes("--rerun-unknown");
    if (command === "retry" || rerunUnknown)
      allowFor(world, model, command ?? "resume", rerunUnknown);
    const before = jobStarts(world);
    const journal = journalOf(world, model);
    // A stdin job's user pipes the rows in again, as they did the first time.
    const stdin = model.job?.viaStdin ? currentInput(world) : undefined;
    const ran = await runCli(
      world,
      { shell: hint, ...(stdin ? { stdin } : {}) },
      "none",
      0,
      journal
    );
    const code = ran.result.code;
    if (model.input === "original" && (code === 2 || code === 127)) {
      broken(
        "a printed next step works as printed",
        `"${hint}" exited ${code}: ${lastLine(ran.result)}`
      );
    }
    model.hint = undefined;
    afterStep(model, world, [ran.result]);
    if (command !== undefined) expectRefusedIfChanged(model, world, before, hint);
    if (command !== undefined) expectClaims(model, world, ran, hint);
  }
  toString(): string {
    return "follow the printed next step";
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

/** The user edits, truncates or restores the input between runs. */
export class EditInputStep extends Step {
  readonly name: string;
  constructor(readonly kind: "edit" | "truncate" | "restore") {
    super();
    this.name = `input ${kind}`;
  }
  check(model: Readonly<CliModel>): boolean {
    // A stdin job keeps no fingerprint of its rows: its user pipes the same rows again
    // (docs/cli.md); a wrong stdin is the resume's short or empty feed.
    if (model.job?.viaStdin) return false;
    return this.kind === "restore" ? model.input !== "original" : model.input === "original";
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    const bytes = tableBytes(world.table);
    if (this.kind === "restore") writeFileSync(world.inputPath, bytes);
    else if (this.kind === "truncate")
      writeFileSync(world.inputPath, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    else {
      // Same size, one byte different near the end: only a fingerprint of the content sees it.
      const edited = Buffer.from(bytes);
      const at =
        edited.lastIndexOf(Buffer.from(world.table.format === "jsonl" ? '"id":"' : "\n")) - 1;
      edited[Math.max(0, at)] = edited[Math.max(0, at)] === 0x41 ? 0x42 : 0x41;
      writeFileSync(world.inputPath, edited);
    }
    model.input =
      this.kind === "restore" ? "original" : this.kind === "edit" ? "edited" : "truncated";
  }
  toString(): string {
    return `input ${this.kind}`;
  }
}

/** Puts the service in one of the model's faults (until the next fault step). */
export class FaultStep extends Step {
  readonly name = "fault";
  constructor(
    readonly fault: FaultName,
    readonly seed: number
  ) {
    super();
  }
  check(): boolean {
    return true;
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    model.faults = this.fault;
    countIn(world.coverage.faults, this.fault);
    world.emulator.setFaults({ ...faultOptionsOf(this.fault), seed: this.seed });
  }
  toString(): string {
    return `fault ${this.fault} (seed ${this.seed})`;
  }
}

/** The service forgets every bulk run (they expired). */
export class ExpireStep extends Step {
  readonly name = "bulk runs expire";
  check(model: Readonly<CliModel>): boolean {
    return model.job !== undefined;
  }
  async act(_model: CliModel, world: CliWorld): Promise<void> {
    countIn(world.coverage.faults, "expired");
    world.emulator.expireAll();
  }
  toString(): string {
    return "the service forgets its bulk runs (expired)";
  }
}

/**
 * The emulator faults of a model fault.
 * @param fault the fault's name
 * @return the emulator's options
 */
export function faultOptionsOf(fault: FaultName): FaultOptions {
  switch (fault) {
    case "bulkStart408":
      return { rateAnswerAfterStart: 0.5, answerAfterStartStatus: 408, endpoints: ["bulkStart"] };
    case "bulkStart502":
      return { rateAnswerAfterStart: 0.5, answerAfterStartStatus: 502, endpoints: ["bulkStart"] };
    case "bulkStartDrop":
      return { dropRate: 0.5, dropPhase: "after", endpoints: ["bulkStart"] };
    case "bulkStart503":
      return { rate503: 0.5, endpoints: ["bulkStart"] };
    case "body413":
      return { bodyLimitBytes: 400, endpoints: ["bulkStart"] };
    case "reads429Storm":
      return { rate429: 0.7, retryAfterSeconds: 0, endpoints: ["getBulkRuns"] };
    case "reads500":
      return { rate500OnReads: 0.3, endpoints: ["getBulkRuns"] };
    case "unknownStates":
      return { rateUnknownState: 0.5 };
    case "shortBulkRuns":
      return { rateShortBulkRuns: 0.5 };
    default:
      return {};
  }
}

const jobParams = {
  interruption: fc.constantFrom<Interruption>(...INTERRUPTIONS, "none", "none"),
  delayMs: fc.integer({ min: 0, max: 400 }),
  tty: fc.boolean(),
};

/** The first step of every sequence: a bulk job. */
export const bulkStepArbitrary: fc.Arbitrary<BulkStep> = fc
  .record({
    ...jobParams,
    stdin: fc.boolean(),
    outputFormat: fc.constantFrom<"csv" | "jsonl">("csv", "csv", "jsonl"),
    chunkSize: fc.integer({ min: 1, max: 4 }),
    maxInFlight: fc.integer({ min: 1, max: 3 }),
    declareEncoding: fc.boolean(),
    overBudget: fc.boolean(),
  })
  .map((params) => new BulkStep(params));

/** Every later step. */
export const stepArbitraries: fc.Arbitrary<Step>[] = [
  fc
    .record({
      ...jobParams,
      rerunUnknown: fc.boolean(),
      stdinFeed: fc.constantFrom<"full" | "empty" | "short">("full", "empty", "short"),
    })
    .map(
      (params) =>
        new ResumeStep({ ...params, rerunUnknown: params.rerunUnknown && params.delayMs % 4 === 0 })
    ),
  fc
    .record({ ...jobParams, rerunUnknown: fc.boolean() })
    .map(
      (params) =>
        new RetryStep({ ...params, rerunUnknown: params.rerunUnknown && params.delayMs % 4 === 0 })
    ),
  fc.constant(new StatusStep()),
  fc.constant(new FollowHintStep()),
  fc.constant(new FollowHintStep()),
  fc.constant(new TwoResumesStep()),
  fc.constant(new ClosedPipeStep()),
  fc
    .constantFrom<"edit" | "truncate" | "restore">("edit", "truncate", "restore")
    .map((kind) => new EditInputStep(kind)),
  fc
    .tuple(fc.constantFrom(...FAULT_NAMES), fc.integer({ min: 1, max: 1000 }))
    .map(([fault, seed]) => new FaultStep(fault, seed)),
  fc.constant(new ExpireStep()),
];
