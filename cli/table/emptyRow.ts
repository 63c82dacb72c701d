import type { RowResult } from "spellrun";

/**
 * Whether a row's inputs are all empty: no input, or each one missing, `null`, or text of
 * spaces only (`,,,` at the end of a spreadsheet export). Such a row starts no run: the task
 * pane skips its blank rows the same way.
 *
 * ## Example
 * ```ts
 * isEmptyRow({ text: "", id: "  " }); // true
 * ```
 * @param inputs the inputs the row would send
 * @return true when there is nothing to send
 */
export function isEmptyRow(inputs: Record<string, unknown>): boolean {
  return Object.values(inputs).every(
    (value) =>
      value === undefined || value === null || (typeof value === "string" && value.trim() === "")
  );
}

/**
 * What an empty row is written with: status `skipped`, error "empty row" (never sent, never run
 * again by a retry).
 *
 * ## Example
 * ```ts
 * const result = isEmptyRow(inputs) ? emptyRowResult() : undefined;
 * ```
 * @return the row's result
 */
export function emptyRowResult(): RowResult {
  return { status: "skipped", outputs: { error: "empty row" } };
}
