import type { FinishedJobRow } from "./RowResult.js";

/**
 * Where a bulk job puts its finished rows. The engine hands rows over in input order, each once.
 * Adapters: `callbackResultWriter` (programs), the command line's ordered output file, the task
 * pane's sheet.
 *
 * ## Example
 * ```ts
 * const writer: ResultWriter<Row> = { write: (rows) => rows.forEach((r) => console.log(r.index, r.status)) };
 * ```
 */
export interface ResultWriter<Row> {
  /** Writes rows (in input order, following the rows written before). */
  write(rows: readonly FinishedJobRow<Row>[]): void | Promise<void>;
  /** Makes the rows written so far durable; awaited before a written mark is recorded. */
  flush?(): void | Promise<void>;
  /** No more rows in this run of the job. */
  end?(): void | Promise<void>;
}
