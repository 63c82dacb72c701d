import { cellToInputValue } from "./cellToInputValue.js";
import { excelError } from "./excelError.js";
import { isBlankCell } from "./isBlankCell.js";

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
 * A 2×2 range is read as names over values, unless only its first column holds usable names.
 * Columns (or rows) whose name and value are both empty are skipped, so a generous selection works.
 *
 * ## Example
 * ```ts
 * parseInputs([["text", "language"], ["Hello", "fr"]]); // { text: "Hello", language: "fr" }
 * parseInputs('{"text":"Hello"}');                      // { text: "Hello" }
 * ```
 *
 * @param value The `inputs` argument.
 * @return The inputs object.
 * @throws `#VALUE!` saying what was wrong and what is accepted.
 */
export function parseInputs(value: unknown): Record<string, unknown> {
  const cells = asRows(value);
  if (cells.length === 1 && cells[0].length === 1) return parseScalar(cells[0][0]);
  const height = cells.length;
  const width = Math.max(...cells.map((row) => row.length));
  if (
    height === 2 &&
    (width !== 2 ||
      namesProblem(cells[0]) === undefined ||
      namesProblem(column(cells, 0)) !== undefined)
  ) {
    return pairUp(cells[0], cells[1], "row");
  }
  if (width === 2) return pairUp(column(cells, 0), column(cells, 1), "column");
  throw invalid(`inputs is a ${height}×${width} range.`);
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

function pairUp(
  names: unknown[],
  values: unknown[],
  along: "row" | "column"
): Record<string, unknown> {
  const problem = namesProblem(names, values);
  if (problem)
    throw invalid(`The names ${along === "row" ? "row" : "column"} of inputs ${problem}`);
  const inputs: Record<string, unknown> = {};
  names.forEach((name, index) => {
    if (isBlankCell(name)) return;
    inputs[(name as string).trim()] = cellToInputValue(values[index]);
  });
  return inputs;
}

/** Why these cells cannot be input names, or `undefined` when they can. */
function namesProblem(names: unknown[], values: unknown[] = []): string | undefined {
  const seen = new Set<string>();
  let count = 0;
  for (let index = 0; index < names.length; index++) {
    const name = names[index];
    if (isBlankCell(name)) {
      if (!isBlankCell(values[index]))
        return `has an empty name next to the value ${describeScalar(values[index])}.`;
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
  return `a ${typeof value}`;
}

function invalid(problem: string): CustomFunctions.Error {
  return excelError("#VALUE!", `${problem} ${ACCEPTED}`);
}
