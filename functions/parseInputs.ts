import { cellToInputValue } from "./cellToInputValue.js";
import { excelError } from "./excelError.js";
import { isBlankCell } from "./isBlankCell.js";
import { isBlankName } from "./isBlankName.js";
import { plainCellValue } from "./plainCellValue.js";

/** Appended to every inputs error, so the user sees what would have worked. */
const ACCEPTED =
  'Use JSON text like {"text":"hi"}, SPELL.INPUTS("text",A2), ' +
  "a 2-row range (names over values) or a 2-column range (names beside values).";

/**
 * Reads the `inputs` argument of `SPELL.RUN` into the spell's inputs object.
 *
 * Accepted forms, as Excel passes them (a range as a 2-D array, a single cell as a scalar or a
 * 1×1 array):
 * - JSON object text, including what `SPELL.INPUTS` returns;
 * - a two-row range, names over values (`A1:C2`);
 * - a two-column range, names beside values (`A1:B3`).
 *
 * A 2×2 range fits both range forms, so it is read only when just one reading is possible (its
 * names are text and distinct, with no empty name beside a value); when both are, nothing
 * is guessed (a wrong guess sends a paid run the wrong inputs): `#VALUE!` says how to make it
 * unambiguous. Columns (or rows) whose name and value are both empty are skipped, so a generous
 * selection works; where a name is expected a `0` counts as empty (`isBlankName`: some Excel
 * builds pass empty cells as `0`).
 *
 * ## Example
 * ```ts
 * parseInputs([["text", "language", ""], ["Hello", "fr", ""]]); // { text: "Hello", language: "fr" }
 * parseInputs('{"text":"Hello"}');                              // { text: "Hello" }
 * parseInputs([["text", "language"], ["Hello", "fr"]]);         // throws #VALUE!: reads two ways
 * ```
 *
 * @param value The `inputs` argument.
 * @return The inputs object.
 * @throws `#VALUE!` saying what was wrong and what is accepted.
 */
export function parseInputs(value: unknown): Record<string, unknown> {
  const cells = asRows(value);
  if (cells.length === 1 && cells[0].length === 1) return parseScalar(plainCellValue(cells[0][0]));
  const height = cells.length;
  const width = Math.max(...cells.map((row) => row.length));
  const overValues = height === 2 ? { names: cells[0], values: cells[1] } : undefined;
  const besideValues =
    width === 2 ? { names: column(cells, 0), values: column(cells, 1) } : undefined;
  if (overValues && besideValues) {
    const overPossible = isPossibleReading(overValues);
    const besidePossible = isPossibleReading(besideValues);
    if (overPossible && besidePossible) throw ambiguous();
    if (besidePossible) return pairUp(besideValues, "column");
    // Neither possible: the names-over-values problem is the one to report.
    return pairUp(overValues, "row");
  }
  if (overValues) return pairUp(overValues, "row");
  if (besideValues) return pairUp(besideValues, "column");
  throw invalid(`inputs is a ${height}×${width} range.`);
}

/** Names with their values, as one of the two range forms lays them out. */
interface Reading {
  names: unknown[];
  values: unknown[];
}

/**
 * A reading is possible when its names are usable, even if its values are all empty: a row of
 * names over values not filled in yet is as likely as a column of names beside them.
 */
function isPossibleReading(reading: Reading): boolean {
  return namesProblem(reading.names, reading.values) === undefined;
}

function parseScalar(cell: unknown): Record<string, unknown> {
  if (isBlankCell(cell)) throw invalid("inputs is empty.");
  if (typeof cell !== "string")
    throw invalid(`inputs is ${describeScalar(cell)}, not an inputs object.`);
  const text = cell.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? ` (${error.message})` : "";
    throw invalid(`inputs text is not valid JSON${reason}.`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalid(
      `inputs text is JSON ${Array.isArray(parsed) ? "array" : describeScalar(parsed)}, not an object.`
    );
  }
  return parsed as Record<string, unknown>;
}

function pairUp({ names, values }: Reading, along: "row" | "column"): Record<string, unknown> {
  const problem = namesProblem(names, values);
  if (problem)
    throw invalid(`The names ${along === "row" ? "row" : "column"} of inputs ${problem}`);
  const entries: [string, unknown][] = [];
  names.forEach((name, index) => {
    if (isBlankName(name)) return;
    entries.push([(name as string).trim(), cellToInputValue(values[index])]);
  });
  // Defined, not assigned: an input named "__proto__" is kept as data.
  return Object.fromEntries(entries);
}

/**
 * Why these cells cannot be input names, or `undefined` when they can. A blank name (or `0`)
 * beside a blank value (or `0`) is an unused column of a generous selection, or a pair of empty
 * cells passed as `0`; beside any other value it is a missing name.
 */
function namesProblem(names: unknown[], values: unknown[]): string | undefined {
  const seen = new Set<string>();
  let count = 0;
  for (let index = 0; index < names.length; index++) {
    const name = names[index];
    if (isBlankName(name)) {
      if (!isBlankName(values[index]))
        return `has an empty name next to ${describeScalar(values[index])}.`;
      continue;
    }
    if (typeof name !== "string") return `holds ${describeScalar(name)}; names must be text.`;
    const trimmed = name.trim();
    if (seen.has(trimmed)) return `names "${trimmed}" twice.`;
    seen.add(trimmed);
    count++;
  }
  return count === 0 ? "is empty." : undefined;
}

/** Excel passes a single cell as a scalar; a range as rows. */
function asRows(value: unknown): unknown[][] {
  if (!Array.isArray(value)) return [[value]];
  if (value.length === 0) return [[null]];
  return value.map((row) => (Array.isArray(row) ? row : [row]));
}

function column(rows: unknown[][], index: number): unknown[] {
  return rows.map((row) => row[index]);
}

function describeScalar(value: unknown): string {
  if (typeof value === "string")
    return `the text "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === "number") return `the number ${value}`;
  if (typeof value === "boolean") return `the logical value ${String(value).toUpperCase()}`;
  if (value === null || value === undefined) return "empty";
  if (typeof value === "object" && typeof (value as { type?: unknown }).type === "string")
    return `a data type value (${(value as { type: string }).type})`;
  return `a ${typeof value}`;
}

function invalid(problem: string): CustomFunctions.Error {
  return excelError("#VALUE!", `${problem} ${ACCEPTED}`);
}

function ambiguous(): CustomFunctions.Error {
  return excelError(
    "#VALUE!",
    "This 2×2 inputs range reads both as names over values and as names beside values. " +
      'Use SPELL.INPUTS("text",A2,...), or add an empty column (names over values) or an empty row (names beside values) to the range.'
  );
}
