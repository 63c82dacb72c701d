import type { SelectionData } from "../sheet/readSelection.js";
import type { CellScalar } from "../sheet/toCellWrite.js";
import { isExcelError } from "./isExcelError.js";

/** Data rows looked at to tell what each column's data looks like. */
const SAMPLE_ROWS = 50;

type CellKind = "empty" | "number" | "boolean" | "error" | "text";

function kindOf(value: CellScalar | undefined): CellKind {
  if (value === undefined || value === null || String(value).trim() === "") return "empty";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  if (isExcelError(value)) return "error";
  return "text";
}

/**
 * Notices a block selected without its header row: the row just above the selection looks like
 * input names (every cell text, none empty, no two alike) and the selection's first row looks
 * like the rows under it (in each column, the same kind of value as most of them: number, text,
 * true/false). Then the first row is a record, and taking it as the names would never run it
 * and write the pane's headers into its cells. Pure.
 *
 * ## Example
 * ```ts
 * const above = headerRowAbove(selection);
 * if (above) offer(`Include row ${above.row + 1} (${above.names.join(", ")}) as the header row?`);
 * ```
 * @return the row above (absolute, zero-based) and its names, or undefined when nothing says so
 */
export function headerRowAbove(
  selection: Pick<SelectionData, "block" | "headers" | "rows" | "rowAbove">
): { row: number; names: string[] } | undefined {
  const above = selection.rowAbove;
  if (!above || selection.rows.length === 0) return undefined;
  const names = above.map((cell) => String(cell ?? "").trim());
  const looksLikeNames =
    above.every((cell) => kindOf(cell) === "text") &&
    new Set(names.map((name) => name.toLowerCase())).size === names.length;
  if (!looksLikeNames) return undefined;
  const sample = selection.rows.slice(0, SAMPLE_ROWS);
  const firstLikeRest = selection.headers.every((cell, column) => {
    const counts = new Map<CellKind, number>();
    for (const row of sample) {
      const kind = kindOf(row[column]);
      if (kind !== "empty") counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    if (counts.size === 0) return kindOf(cell) === "empty";
    const usual = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    return kindOf(cell) === usual;
  });
  if (!firstLikeRest) return undefined;
  // The first row repeats the names above: it is a second header, not data.
  if (selection.headers.every((cell, column) => String(cell ?? "").trim() === names[column])) {
    return undefined;
  }
  return { row: selection.block.top - 1, names };
}
