import { cellToInputValue } from "./cellToInputValue.js";
import { excelError } from "./excelError.js";
import { isBlankName } from "./isBlankName.js";

/**
 * Reads the `table` argument of `SPELL.BULK`: input names in the first row, one run per further
 * row. Columns without a name are ignored; rows with every cell empty are kept as `undefined`
 * (they get an empty output row, and no run: an empty row should not cost money).
 *
 * Some Excel builds pass empty cells as `0` (office-js #4702, #1951), so a `0` in the names row is
 * an empty name, and a row whose cells are all empty or `0` counts as empty: a row of typed zeros
 * is not run either (a spell over nothing but zeros is rarely meant, and skipping it costs
 * nothing, while running an empty row costs a run). A `0` in a row with other values is sent as
 * `0`.
 *
 * ## Example
 * ```ts
 * parseTable([["text"], ["Hello"], [""], ["Bye"]]);
 * // [{ text: "Hello" }, undefined, { text: "Bye" }]
 * ```
 *
 * @param value The table as Excel passes a range (a 2-D array).
 * @return One inputs object (or `undefined` for an empty row) per row under the names.
 * @throws `#VALUE!` when there is no data row or the names are unusable.
 */
export function parseTable(value: unknown): (Record<string, unknown> | undefined)[] {
  const rows = Array.isArray(value)
    ? value.map((row) => (Array.isArray(row) ? row : [row]))
    : [[value]];
  if (rows.length < 2) {
    throw invalid(
      `table has ${rows.length} row; it needs a row of input names and at least one row of values.`
    );
  }
  const header = rows[0];
  const columns: { name: string; index: number }[] = [];
  const seen = new Set<string>();
  header.forEach((cell, index) => {
    if (isBlankName(cell)) return;
    if (typeof cell !== "string")
      throw invalid(
        `The first row of table must hold input names (text); column ${index + 1} holds ${describe(cell)}.`
      );
    const name = cell.trim();
    if (seen.has(name)) throw invalid(`The first row of table names "${name}" twice.`);
    seen.add(name);
    columns.push({ name, index });
  });
  if (columns.length === 0) throw invalid("The first row of table has no input names.");
  return rows.slice(1).map((row) => {
    if (columns.every(({ index }) => isBlankName(row[index]))) return undefined;
    // Defined, not assigned: a column named "__proto__" is an input like any other.
    return Object.fromEntries(
      columns.map(({ name, index }) => [name, cellToInputValue(row[index])])
    ) as Record<string, unknown>;
  });
}

function describe(cell: unknown): string {
  if (cell && typeof cell === "object" && typeof (cell as { type?: unknown }).type === "string")
    return `a data type value (${(cell as { type: string }).type})`;
  return String(cell);
}

function invalid(problem: string): CustomFunctions.Error {
  return excelError(
    "#VALUE!",
    `${problem} Example: A1:B1 = text, language; A2:B9 = one run per row.`
  );
}
