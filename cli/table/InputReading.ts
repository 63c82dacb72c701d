import { UsageError } from "../errors/UsageError.js";
import { checkEncoding } from "./decodeInput.js";
import type { TableFormat } from "./tableFormat.js";

/**
 * How an input table is read, beyond its format (csvkit's and xsv's flags): its text encoding
 * (`--encoding`, else detected: see `decodeInput`), its cell delimiter (`--delimiter`, else `,`
 * for CSV and tab for TSV) and whether its first row is a header (`--no-header-row`: the
 * columns are then named `a`, `b`, … `z`, `aa`, `bb`, … as csvkit names them). Kept in the
 * journal, so `resume` and `retry` read the input as `bulk` did.
 *
 * ## Example
 * ```ts
 * const reading: InputReading = { encoding: "windows-1252", delimiter: ";", headerRow: false };
 * ```
 */
export interface InputReading {
  encoding?: string;
  delimiter?: string;
  /** `false` with `--no-header-row`; a header row otherwise. */
  headerRow?: false;
}

/**
 * Builds and checks the reading options from the command line's flags.
 *
 * ## Example
 * ```ts
 * parseInputReading({ delimiter: ";", headerRow: true }, "csv"); // { delimiter: ";" }
 * ```
 * @param flags `--encoding`, `--delimiter`, `--no-header-row` (commander's `headerRow: false`)
 * @param format the input's format
 * @return the options (empty for the defaults)
 * @throws UsageError for an unknown encoding, a delimiter that is not one character (`\t`
 *   accepted for tab), or CSV-only flags with JSONL
 */
export function parseInputReading(
  flags: { encoding?: string; delimiter?: string; headerRow?: boolean },
  format: TableFormat
): InputReading {
  const reading: InputReading = {};
  if (flags.encoding !== undefined) {
    checkEncoding(flags.encoding);
    reading.encoding = flags.encoding;
  }
  if (flags.delimiter !== undefined) {
    if (format === "jsonl") throw new UsageError("--delimiter is for CSV and TSV input, not JSONL");
    const delimiter =
      flags.delimiter === "\\t" || flags.delimiter === "tab" ? "\t" : flags.delimiter;
    if ([...delimiter].length !== 1 || /["\r\n]/.test(delimiter)) {
      throw new UsageError(
        `--delimiter must be one character (e.g. ";", "|", "\\t" for tab), not "${flags.delimiter}"`
      );
    }
    reading.delimiter = delimiter;
  }
  if (flags.headerRow === false) {
    if (format === "jsonl")
      throw new UsageError("--no-header-row is for CSV and TSV input, not JSONL");
    reading.headerRow = false;
  }
  return reading;
}

/**
 * Whether a journal's `reading` field is one this version writes (the journal is a file anyone
 * may have edited).
 *
 * ## Example
 * ```ts
 * isInputReading({ delimiter: ";" }); // true
 * isInputReading({ delimiter: 7 }); // false
 * ```
 * @param value the field
 * @return true when valid
 */
export function isInputReading(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { encoding, delimiter, headerRow, ...rest } = value as Record<string, unknown>;
  return (
    Object.keys(rest).length === 0 &&
    (encoding === undefined || (typeof encoding === "string" && isKnownEncoding(encoding))) &&
    (delimiter === undefined || (typeof delimiter === "string" && [...delimiter].length === 1)) &&
    (headerRow === undefined || headerRow === false)
  );
}

function isKnownEncoding(name: string): boolean {
  try {
    checkEncoding(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The name of column `index` of a table without a header row, as csvkit's `--no-header-row`
 * names them: `a` … `z`, then `aa`, `bb` … `zz`, then `aaa`, …
 *
 * ## Example
 * ```ts
 * [0, 1, 25, 26, 27].map(letterColumnName); // ["a", "b", "z", "aa", "bb"]
 * ```
 * @param index the column's place, from 0
 * @return its name
 */
export function letterColumnName(index: number): string {
  return String.fromCharCode(97 + (index % 26)).repeat(Math.floor(index / 26) + 1);
}
