import type { ResultWriter } from "./ResultWriter.js";
import type { FinishedJobRow } from "./RowResult.js";

/**
 * A result writer that calls back once per finished row, in input order.
 *
 * ## Example
 * ```ts
 * const results: string[] = [];
 * const writer = callbackResultWriter<Row>((row) => results.push(`${row.index} ${row.status}`));
 * ```
 * @param onRow called for every row; may return a promise (the job waits for it)
 * @return the writer
 */
export function callbackResultWriter<Row>(
  onRow: (row: FinishedJobRow<Row>) => void | Promise<void>
): ResultWriter<Row> {
  return {
    async write(rows) {
      for (const row of rows) await onRow(row);
    },
  };
}
