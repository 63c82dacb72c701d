import { checkInputMapping, type InputMapping } from "./InputMapping.js";
import { readInputRows } from "./readInputRows.js";
import type { TableFormat } from "./tableFormat.js";

/**
 * Reads a whole input file once before anything starts: every malformed line is found before a
 * run costs anything, the `--map`/`--only` columns are checked, and the total feeds the progress
 * bar's ETA. Streams, so a million rows take no more memory than one.
 *
 * ## Example
 * ```ts
 * const total = await countRows("rows.csv", "csv", { rename: {} }); // 1000000
 * ```
 * @param path the input file
 * @param format its format
 * @param mapping the input mapping to check
 * @return the number of data rows
 */
export async function countRows(
  path: string,
  format: TableFormat,
  mapping: InputMapping
): Promise<number> {
  const table = readInputRows(path, format);
  let count = 0;
  for await (const row of table.rows) {
    if (count === 0)
      checkInputMapping(mapping, format === "jsonl" ? Object.keys(row.values) : table.columns());
    count++;
  }
  return count;
}
