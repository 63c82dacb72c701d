import type { KeptResult } from "./KeptResult.js";
import type { CellScalar } from "../sheet/toCellWrite.js";

/**
 * The field of a job's per-row record (see `rowRecordStore`) that holds its kept results: one
 * JSON object per line, so that one more kept result only appends to the field.
 */
export const KEPT_RESULTS_FIELD = "kept";

/**
 * Characters a job's kept results may take in its record, per run of the job: 1 Mi, as much as
 * 32 full cells of outputs for every run. A record beyond it was not written by the pane.
 */
export const MAX_KEPT_CHARS_PER_RUN = 1_048_576;

/** Outputs, inputs or formats one kept result holds at most: the columns of a worksheet. */
const MAX_VALUES_PER_RESULT = 16_384;

/** An output value as the record keeps it: what a cell can hold, or empty. */
type KeptOutput = CellScalar | null;

/**
 * A job's kept results as the text of its record field: one JSON object per line (JSON text
 * never holds a raw line break), output values as scalars (an object or array output as its
 * JSON text, which is also what Copy kept results and a cell show of it).
 *
 * ## Example
 * ```ts
 * keptResultsRecordText([{ status: "success", outputs: { upper: "D", tags: ["a"] }, inputs: ["d"] }]);
 * // '{"status":"success","outputs":{"upper":"D","tags":"[\\"a\\"]"},"inputs":["d"]}'
 * ```
 *
 * @param kept The job's kept results, in the order they were kept.
 * @return The field's text ("" when none).
 */
export function keptResultsRecordText(kept: readonly KeptResult[]): string {
  return kept.map(recordLine).join("\n");
}

/**
 * Each kept result's line, made once (a result is never changed once kept): a bulk saves its
 * whole list each time one more is kept (the same objects, new ones pushed), and 20,000 results
 * of 1 KB take ~0.3 s to serialize; with the lines known, ~40 ms.
 */
const recordLines = new WeakMap<KeptResult, string>();

function recordLine(result: KeptResult): string {
  const known = recordLines.get(result);
  if (known !== undefined) return known;
  const { status, outputs, inputs, formats } = result;
  const line = JSON.stringify({
    status,
    ...(outputs ? { outputs: scalarOutputs(outputs) } : {}),
    ...(inputs ? { inputs } : {}),
    ...(formats ? { formats } : {}),
  });
  recordLines.set(result, line);
  return line;
}

function scalarOutputs(outputs: Record<string, unknown>): Record<string, KeptOutput> {
  return Object.fromEntries(
    Object.entries(outputs).flatMap(([name, value]): Array<[string, KeptOutput]> => {
      if (value === undefined) return [];
      if (value === null || typeof value === "string" || typeof value === "boolean") {
        return [[name, value]];
      }
      if (typeof value === "number") return [[name, Number.isFinite(value) ? value : null]];
      return [[name, JSON.stringify(value) ?? String(value)]];
    })
  );
}

/**
 * A job's kept results read from its record field, or why they may not be used. The field comes
 * with the workbook, a file from anywhere, so it is bounded before anything is parsed (at most
 * one result per run of the job, at most `MAX_KEPT_CHARS_PER_RUN` characters per run) and each
 * result is checked (status text; outputs, inputs and formats within a worksheet's columns;
 * values text, numbers, true/false or empty only), as `storedJobProblem` checks the rest.
 *
 * ## Example
 * ```ts
 * readKeptResultsRecord('{"status":"success","outputs":{"upper":"D"}}', 6);
 * // { kept: [{ status: "success", outputs: { upper: "D" } }] }
 * readKeptResultsRecord("x".repeat(4 * 1_048_576), 3); // { problem: "its kept results take … characters, …" }
 * ```
 *
 * @param text The field's text.
 * @param runs The job's run count (checked with its settings record).
 * @return The kept results, or the problem in words for the user.
 */
export function readKeptResultsRecord(
  text: string,
  runs: number
): { kept: KeptResult[] } | { problem: string } {
  if (text === "") return { kept: [] };
  if (text.length > runs * MAX_KEPT_CHARS_PER_RUN) {
    return {
      problem: `its kept results take ${text.length} characters, more than a job of ${runs} runs keeps`,
    };
  }
  // Counted before the text is split: a crafted field of line breaks stops at the first extra.
  let lines = 1;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
    if (++lines > runs) return { problem: `it keeps more results than its ${runs} runs` };
  }
  const kept: KeptResult[] = [];
  for (const line of text.split("\n")) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { problem: "its kept results are damaged" };
    }
    const result = keptResultOf(value, false);
    if (typeof result === "string") return { problem: result };
    kept.push(result);
  }
  return { kept };
}

/**
 * Why a job's kept-results field may not be used (see `readKeptResultsRecord`), or `undefined`.
 *
 * ## Example
 * ```ts
 * keptResultsRecordProblem('{"status":"success","outputs":{"x":{"deep":1}}}', 3);
 * // "its kept results hold an output that is not text, a number, true/false or empty"
 * ```
 *
 * @param text The field's text.
 * @param runs The job's run count.
 * @return The problem, or `undefined`.
 */
export function keptResultsRecordProblem(text: string, runs: number): string | undefined {
  const read = readKeptResultsRecord(text, runs);
  return "problem" in read ? read.problem : undefined;
}

/**
 * Kept results from the document setting where the previous version stored them
 * (`spellrun.bulkKept.<id>`, or the bare name for a job without an id): the same checks as the
 * record's, except that an object or array output (which that version kept as it came) becomes
 * its JSON text. Empty when the setting is absent or fails a check.
 *
 * ## Example
 * ```ts
 * keptResultsFromSetting([{ status: "success", outputs: { tags: ["a"] } }]);
 * // [{ status: "success", outputs: { tags: '["a"]' } }]
 * ```
 *
 * @param value The setting as read.
 * @param runs The most results the job can have kept.
 * @return The kept results.
 */
export function keptResultsFromSetting(value: unknown, runs: number): KeptResult[] {
  if (!Array.isArray(value) || value.length > runs) return [];
  const kept: KeptResult[] = [];
  for (const item of value) {
    const result = keptResultOf(item, true);
    if (typeof result === "string") return [];
    kept.push(result);
  }
  return kept;
}

/** One kept result checked and copied field by field (nothing else of the value is kept). */
function keptResultOf(value: unknown, objectsAsText: boolean): KeptResult | string {
  if (!isRecord(value) || typeof value.status !== "string") {
    return "its kept results are not results of runs";
  }
  const result: KeptResult = { status: value.status };
  if (value.outputs !== undefined) {
    if (!isRecord(value.outputs)) return "its kept outputs are not named values";
    const entries = Object.entries(value.outputs);
    if (entries.length > MAX_VALUES_PER_RESULT) return "its kept results hold too many outputs";
    if (!objectsAsText && !entries.every(([, output]) => isCellScalar(output) || output === null)) {
      return "its kept results hold an output that is not text, a number, true/false or empty";
    }
    try {
      result.outputs = scalarOutputs(value.outputs);
    } catch {
      return "its kept outputs are damaged"; // nested too deep to be written as text
    }
  }
  if (value.inputs !== undefined) {
    if (!isList(value.inputs, isCellScalar)) {
      return "its kept inputs are not text, numbers or true/false";
    }
    result.inputs = [...(value.inputs as CellScalar[])];
  }
  if (value.formats !== undefined) {
    if (!isList(value.formats, (format) => typeof format === "string")) {
      return "its kept number formats are not text";
    }
    result.formats = [...(value.formats as string[])];
  }
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCellScalar(value: unknown): value is CellScalar {
  return (
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

function isList(value: unknown, item: (value: unknown) => boolean): value is unknown[] {
  return Array.isArray(value) && value.length <= MAX_VALUES_PER_RESULT && value.every(item);
}
