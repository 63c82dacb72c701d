import type { RowStatus } from "spellrun";

/**
 * One row of a command-line job: its input values, and for a `spellrun retry` row that needs no
 * run again, the earlier output's text of it (copied as it is) and its status.
 *
 * ## Example
 * ```ts
 * const row: JobRow = { values: { text: "hi" }, kept: { raw: "hi,success,2,,\n", status: "success" } };
 * ```
 */
export interface JobRow {
  values: Record<string, unknown>;
  kept?: { raw: string; status: RowStatus };
}
