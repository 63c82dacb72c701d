import { UsageError } from "../errors/UsageError.js";

/**
 * The file formats `spellrun bulk` reads and writes.
 *
 * ## Example
 * ```ts
 * const format: TableFormat = tableFormat("rows.tsv"); // "tsv"
 * ```
 */
export type TableFormat = "csv" | "tsv" | "jsonl";

const BY_EXTENSION: Record<string, TableFormat> = {
  ".csv": "csv",
  ".tsv": "tsv",
  ".tab": "tsv",
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
};

/**
 * The format of a table file: the `--format` option when given, else the file's extension.
 * `-` (stdin/stdout) needs `--format` or a `fallback`.
 *
 * ## Example
 * ```ts
 * tableFormat("out.jsonl"); // "jsonl"
 * tableFormat("-", undefined, "csv"); // "csv"
 * ```
 * @param path the file path, or `-`
 * @param explicit the value of `--format`, if any
 * @param fallback the format to use when the path does not say
 * @return the format
 */
export function tableFormat(path: string, explicit?: string, fallback?: TableFormat): TableFormat {
  if (explicit !== undefined) {
    if (explicit === "csv" || explicit === "tsv" || explicit === "jsonl") return explicit;
    throw new UsageError(`--format must be csv, tsv or jsonl, not "${explicit}"`);
  }
  const dot = path.lastIndexOf(".");
  const found = dot > 0 ? BY_EXTENSION[path.slice(dot).toLowerCase()] : undefined;
  if (found) return found;
  if (fallback) return fallback;
  throw new UsageError(
    `Cannot tell the format of "${path}" from its extension: use .csv, .tsv or .jsonl, or --format`
  );
}
