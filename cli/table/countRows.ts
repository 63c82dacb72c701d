import { checkInputMapping, toSpellInputs, type InputMapping } from "./InputMapping.js";
import { isEmptyRow } from "./emptyRow.js";
import type { InputReading } from "./InputReading.js";
import { readInputRows } from "./readInputRows.js";
import type { TableFormat } from "./tableFormat.js";

/**
 * Reads a whole input file once before anything starts: every malformed line (or byte that is
 * not of its encoding) is found before a run costs anything, the `--map`/`--only` columns are
 * checked, and the total feeds the progress bar's ETA. Streams, so a million rows take no more
 * memory than one. `onColumns` receives the table's columns: the header, or for JSONL every key
 * of every object in order of first appearance (a CSV output then has a column for a key the
 * first object lacks).
 *
 * ## Example
 * ```ts
 * const total = await countRows("rows.csv", "csv", { rename: {} }); // 1000000
 * ```
 * @param path the input file
 * @param format its format
 * @param mapping the input mapping to check
 * @param reading encoding, delimiter and header row
 * @param onColumns receives the columns once the whole file was read
 * @param onEmptyRows receives how many of the rows have all their inputs empty (they start no run)
 * @return the number of data rows
 */
export async function countRows(
  path: string,
  format: TableFormat,
  mapping: InputMapping,
  reading: InputReading = {},
  onColumns?: (columns: string[]) => void,
  onEmptyRows?: (count: number) => void
): Promise<number> {
  const table = readInputRows(path, format, reading);
  let count = 0;
  let empty = 0;
  for await (const row of table.rows) {
    // A CSV header is known at once: a wrong --map stops the read at the first row.
    if (count === 0 && format !== "jsonl") checkInputMapping(mapping, table.columns());
    if (isEmptyRow(toSpellInputs(row.values, mapping))) empty++;
    count++;
  }
  if (format === "jsonl" && count > 0) checkInputMapping(mapping, table.columns());
  onColumns?.(table.columns());
  onEmptyRows?.(empty);
  return count;
}
