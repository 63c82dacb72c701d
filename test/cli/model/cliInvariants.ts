import { constants } from "node:os";
import { existsSync, readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { JOB_SPELL, PIPE_SPELL, type CliModel, type CliWorld } from "./cliModelState.js";
import type { ProcessResult } from "./cliProcess.js";
import { cellText, checksumOf, rowFails, sentInputs, type Cell } from "./modelTable.js";

/** A broken promise: which invariant, and what was seen. */
export class InvariantError extends Error {
  override name = "InvariantError" as const;
}

/** Invariants left unchecked for this run (`SPELLRUN_MODEL_IGNORE`), to look past a known defect. */
const ignored = new Set<string>();

/**
 * Sets the invariants to leave unchecked: names separated by `;`, as the failures print them.
 * @param names the names
 */
export function ignoreInvariants(names: string | undefined): void {
  ignored.clear();
  for (const name of (names ?? "").split(";")) if (name.trim() !== "") ignored.add(name.trim());
}

/**
 * Reports a broken invariant (throws), unless it is ignored for this run.
 * @param invariant the promise's name
 * @param detail what was seen
 */
export function broken(invariant: string, detail: string): void {
  if (ignored.has(invariant)) return;
  throw new InvariantError(`${invariant}: ${detail}`);
}

/** Reports a state the checks cannot go past (never ignored). */
function fatal(invariant: string, detail: string): never {
  throw new InvariantError(`${invariant}: ${detail}`);
}

/** The exit codes of the table in docs/cli.md (`| 130 | interrupted … |`). */
export function documentedExitCodes(markdown: string): Set<number> {
  const codes = new Set<number>();
  for (const match of markdown.matchAll(/^\|\s*(\d{1,3})\s*\|/gm)) codes.add(Number(match[1]));
  return codes;
}

const HIDE_CURSOR = "\u001b[?25l";
const SHOW_CURSOR = "\u001b[?25h";

/**
 * Checks how a process ended: an exit code of the documented table (a signal the CLI handles is
 * no reason to die of it), no stack trace, no option the docs promise missing, the terminal's
 * cursor shown again after any hide.
 * @param world the world
 * @param result the process's end
 * @param killed whether the model killed it with kill -9 (then it has no say)
 */
export function checkProcessEnd(world: CliWorld, result: ProcessResult, killed: boolean): void {
  const text = `${result.stderr}\n${result.stdout}`;
  if (killed) return;
  // A shell shows a death by signal N as $? = 128 + N: that status must be in the table too.
  const shown = result.code ?? 128 + (result.signal ? (constants.signals[result.signal] ?? 0) : 0);
  if (!world.exitCodes.has(shown)) {
    broken(
      "exit codes agree with docs/cli.md",
      `exit ${result.code ?? `by ${result.signal}`} (the shell's $? ${shown}) is not in the table (${[...world.exitCodes].join(", ")}); stderr: ${tail(result.stderr)}`
    );
  }
  if (/unexpected error|\n\s+at .+:\d+:\d+\)?/.test(text)) {
    broken("no stack trace", `the command printed a stack trace: ${tail(text)}`);
  }
  if (/unknown option|too many arguments/.test(result.stderr)) {
    broken("documented options exist", tail(result.stderr));
  }
  if (result.terminal !== undefined) {
    const hidden = result.terminal.lastIndexOf(HIDE_CURSOR);
    if (hidden !== -1 && result.terminal.lastIndexOf(SHOW_CURSOR) < hidden) {
      broken("the terminal is left as found", "the cursor was hidden and never shown again");
    }
  } else if (result.stderr.includes(HIDE_CURSOR)) {
    broken(
      "the terminal is left as found",
      "a cursor sequence was written to a stderr that is not a terminal"
    );
  }
}

function sameInputs(inputs: Record<string, unknown>, row: Record<string, Cell>): boolean {
  const keys = Object.keys(inputs);
  const rowKeys = Object.keys(row);
  if (keys.length !== rowKeys.length) return false;
  return rowKeys.every(
    (key) => Object.prototype.hasOwnProperty.call(inputs, key) && inputs[key] === row[key]
  );
}

/**
 * Checks the starts the emulator counted: every start carries exactly the values of one input
 * row, and no row was started more often than the user allowed.
 * @param model the model
 * @param world the world
 * @param pipeJobs closed-pipe jobs run so far (each may start every row once under PIPE_SPELL)
 */
export function checkStarts(model: CliModel, world: CliWorld, pipeJobs: number): void {
  const byId = new Map(world.table.rows.map((row) => [String(row.id), row]));
  for (const [key, count] of Object.entries(world.emulator.stats.bulkCreatedByKey)) {
    const [spellId, inputs] = JSON.parse(key) as [string, Record<string, unknown>];
    const row = byId.get(String(inputs.id));
    if (!row || !sameInputs(inputs, sentInputs(row))) {
      fatal(
        "rows reach the service as they are in the input",
        `${spellId} was started with ${JSON.stringify(inputs)}, which is no row of the input${row ? ` (row ${String(row.id)} is ${JSON.stringify(row)})` : ""}`
      );
    }
    const allowed =
      spellId === PIPE_SPELL
        ? pipeJobs
        : spellId === JOB_SPELL
          ? (model.allowance.get(String(row.id)) ?? 0)
          : 0;
    if (count > allowed) {
      broken(
        "no row is started twice",
        `row ${String(row.id)} was started ${count} times under ${spellId}, the user allowed ${allowed}`
      );
    }
  }
}

/** Starts of the job's spell so far, all rows together. */
export function jobStarts(world: CliWorld): number {
  let total = 0;
  for (const [key, count] of Object.entries(world.emulator.stats.bulkCreatedByKey)) {
    if (key.startsWith(`["${JOB_SPELL}"`)) total += count;
  }
  return total;
}

/** A journal's records, read leniently (the format may grow). */
export function journalRecords(file: string): { type?: string; [field: string]: unknown }[] {
  if (!existsSync(file)) return [];
  const records = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    try {
      records.push(JSON.parse(line) as { type?: string });
    } catch {
      // A torn last line.
    }
  }
  return records;
}

/** Whether a journal ends with a complete end record. */
export function journalComplete(file: string): boolean {
  const records = journalRecords(file);
  const last = records[records.length - 1];
  return last?.type === "end" && last.outcome === "complete";
}

/** An output row as the checks see it. */
interface OutputRow {
  id: string;
  status: string;
  digest?: string;
}

/** Cells of a CSV line: a CR or LF outside quotes ends a record for every spreadsheet. */
function checkLineEnds(text: string): void {
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === "\r") {
      broken(
        "cells with CR are quoted",
        `a carriage return outside quotes at byte ${index}: ${JSON.stringify(text.slice(Math.max(0, index - 30), index + 10))}`
      );
    }
  }
}

function guardedVariants(value: string): string[] {
  return /^[=+\-@\t\r]/.test(value) ? [value, `'${value}`] : [value];
}

/**
 * Checks the job's output file: the rows it vouches for (all of them once the journal says the
 * job is complete) are the input's rows in input order, each once, with the input cells exactly
 * as in the input, and the outputs of their own run; a row once paid for keeps its result.
 * @param model the model (its `paid` rows grow)
 * @param world the world
 */
export function checkOutput(model: CliModel, world: CliWorld): void {
  if (!model.job) return;
  const outputPath = world.outputPath(model.job.outputFormat);
  const journalPath = `${outputPath}.journal`;
  if (!existsSync(outputPath)) return;
  const complete = journalComplete(journalPath);
  let bytes = readFileSync(outputPath);
  if (!complete) {
    const written = journalRecords(journalPath).filter((r) => r.type === "written");
    const vouched = written.length > 0 ? Number(written[written.length - 1].bytes) : 0;
    bytes = bytes.subarray(0, Number.isFinite(vouched) ? vouched : 0);
  }
  const text = bytes.toString("utf8");
  const rows = model.job.outputFormat === "jsonl" ? jsonlRows(world, text) : csvRows(world, text);
  const ids = world.table.rows.map((row) => String(row.id));
  rows.forEach((row, place) => {
    if (row.id !== ids[place]) {
      broken(
        "every row once, in input order",
        `output row ${place + 1} is input row ${row.id}, expected ${ids[place] ?? "no row"} (rows: ${rows.map((r) => r.id).join(",")})`
      );
    }
  });
  if (complete && rows.length !== ids.length) {
    broken(
      "every row once",
      `the journal says complete, the output holds ${rows.length} of ${ids.length} rows`
    );
  }
  for (const row of rows) {
    const paid = model.paid.get(row.id);
    if (paid !== undefined && (row.status !== "success" || row.digest !== paid)) {
      broken("nothing paid is thrown away", `row ${row.id} had succeeded, now it is ${row.status}`);
    }
    if (row.status === "success" && row.digest !== undefined) model.paid.set(row.id, row.digest);
  }
}

function expectRowOutputs(row: Record<string, Cell>, status: string, digest: unknown): void {
  if (status === "success") {
    if (rowFails(row))
      broken("outputs of its own run", `row ${String(row.id)} holds "!fail" yet is success`);
    if (digest !== checksumOf(sentInputs(row))) {
      broken(
        "outputs of its own run",
        `row ${String(row.id)} has digest ${String(digest)}, its inputs give ${checksumOf(sentInputs(row))}`
      );
    }
  }
}

function csvRows(world: CliWorld, text: string): OutputRow[] {
  if (text === "") return [];
  checkLineEnds(text);
  let records: string[][];
  try {
    records = parse(text, { relax_column_count: true }) as string[][];
  } catch (error) {
    fatal("the output is CSV", (error as Error).message);
  }
  const [header, ...data] = records;
  const { table } = world;
  const k = table.columns.length;
  const inputHeader = header.slice(0, k);
  const sameColumns =
    table.format === "csv"
      ? inputHeader.join("\u0000") === table.columns.join("\u0000")
      : [...inputHeader].sort().join("\u0000") === [...table.columns].sort().join("\u0000");
  if (!sameColumns) {
    broken(
      "input columns kept",
      `the header starts ${JSON.stringify(inputHeader)}, the input has ${JSON.stringify(table.columns)}`
    );
  }
  if (new Set(header).size !== header.length) {
    broken("distinct column names", `the header repeats a name: ${JSON.stringify(header)}`);
  }
  const digestAt = header.indexOf("digest", k + 1);
  const sampleAt = header.indexOf("sample", k + 1);
  const idAt = inputHeader.indexOf("id");
  return data.map((cells, place) => {
    if (cells.length !== header.length) {
      broken(
        "every row once",
        `output row ${place + 1} has ${cells.length} cells under a header of ${header.length}`
      );
    }
    const id = cells[idAt];
    const row = table.rows.find((each) => String(each.id) === id);
    if (!row)
      fatal(
        "every row once",
        `output row ${place + 1} has id ${JSON.stringify(id)}, no input row has it`
      );
    inputHeader.forEach((column, index) => {
      const expected = cellText(
        Object.prototype.hasOwnProperty.call(row, column) ? row[column] : undefined
      );
      if (cells[index] !== expected) {
        broken(
          "input cells byte for byte",
          `row ${id} column ${JSON.stringify(column)} is ${JSON.stringify(cells[index])}, the input has ${JSON.stringify(expected)}`
        );
      }
    });
    const status = cells[k];
    // An output without a column of its own (the header was fixed before any row succeeded,
    // and a retry keeps it) is in other_outputs, the header's last column, as JSON.
    const digest =
      digestAt === -1 ? otherOutput(cells[header.length - 1], "digest") : cells[digestAt];
    expectRowOutputs(row, status, digest);
    if (status === "success" && sampleAt !== -1) {
      const sample = typeof row.text === "string" ? row.text : "";
      if (!guardedVariants(sample).includes(cells[sampleAt])) {
        broken(
          "outputs of its own run",
          `row ${id} sample is ${JSON.stringify(cells[sampleAt])}, expected ${JSON.stringify(sample)}`
        );
      }
    }
    return { id, status, digest };
  });
}

/** An output kept in the `other_outputs` cell (JSON of the outputs without a column). */
function otherOutput(cell: string | undefined, name: string): string | undefined {
  if (!cell) return undefined;
  try {
    const outputs = JSON.parse(cell) as unknown;
    const value =
      outputs && typeof outputs === "object"
        ? (outputs as Record<string, unknown>)[name]
        : undefined;
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function jsonlRows(world: CliWorld, text: string): OutputRow[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line, place) => {
      let value: {
        input?: Record<string, unknown>;
        status?: string;
        outputs?: Record<string, unknown>;
      };
      try {
        value = JSON.parse(line) as typeof value;
      } catch {
        fatal("the output is JSONL", `line ${place + 1} is not JSON: ${line.slice(0, 80)}`);
      }
      const id = String(value.input?.id);
      const row = world.table.rows.find((each) => String(each.id) === id);
      if (!row || !value.input || !sameInputs(value.input, row)) {
        fatal(
          "input cells byte for byte",
          `output line ${place + 1} has input ${JSON.stringify(value.input)}, not the input row's ${JSON.stringify(row)}`
        );
      }
      const status = String(value.status);
      expectRowOutputs(row, status, value.outputs?.digest);
      return { id, status, digest: value.outputs?.digest as string | undefined };
    });
}

/**
 * The command the CLI printed last as the next step to take, if any.
 * @param result a process's output
 * @return the command text
 */
export function printedNextStep(result: ProcessResult): string | undefined {
  const text = `${result.stderr}\n${result.stdout}`;
  const patterns = [
    /resume with: (spellrun [^\n;]*?)(?:\s*$|\n)/gm,
    /run them again with: (spellrun [^\n]*?)\s*$/gm,
    // status's `next` line: the command, then any comment in parentheses.
    /^next\s+(spellrun .*?)(?: \(.*)?$/gm,
    /continue it with "(spellrun [^"]*)"/g,
    /collect them first with "(spellrun [^"]*)"/g,
  ];
  let last: { at: number; command: string } | undefined;
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      if (!last || match.index > last.at) last = { at: match.index, command: match[1].trim() };
    }
  }
  return last?.command;
}

function tail(text: string): string {
  return JSON.stringify(text.trim().split("\n").slice(-3).join(" | ").slice(-400));
}
