import { constants, createReadStream, openSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { parse, type Options } from "csv-parse";
import { InputError } from "../errors/InputError.js";
import type { TableFormat } from "./tableFormat.js";

/**
 * One data row of an input table: its values by column name, and the line where it ends (for
 * messages; a quoted CSV cell may span lines).
 *
 * ## Example
 * ```ts
 * const row: InputRow = { line: 2, values: { text: "hello" } };
 * ```
 */
export interface InputRow {
  line: number;
  values: Record<string, unknown>;
}

/**
 * An input table read as a stream: `columns` is known once the first row has been read (the CSV
 * header, or the keys of the first JSON object).
 *
 * ## Example
 * ```ts
 * const table = readInputRows("rows.csv", "csv");
 * for await (const row of table.rows) console.log(table.columns(), row.values);
 * ```
 */
export interface InputTable {
  columns(): string[];
  rows: AsyncIterable<InputRow>;
}

/**
 * Reads a CSV, TSV or JSONL table row by row, with backpressure: a row is parsed only when the
 * consumer asks for it, so memory does not grow with the file. CSV goes through csv-parse (BOM,
 * quoted cells, CRLF); a row with a different number of cells than the header, a malformed
 * line or an unreadable file throws `InputError` naming the line.
 *
 * ## Example
 * ```ts
 * for await (const { line, values } of readInputRows("-", "jsonl").rows) console.log(line, values);
 * ```
 * @param path a file path, or `-` for stdin
 * @param format the table format
 * @return the table
 */
export function readInputRows(path: string, format: TableFormat): InputTable {
  const name = path === "-" ? "stdin" : path;
  let columns: string[] = [];
  const open = (): Readable => {
    if (path === "-") return process.stdin;
    try {
      // Opened here, so that a missing file is reported before anything else happens; never
      // through a symbolic link (a planted link would send another file's rows).
      return createReadStream(path, {
        fd: openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW),
      });
    } catch (error) {
      throw new InputError(name, undefined, `cannot read: ${(error as Error).message}`, {
        cause: error,
      });
    }
  };
  const rows =
    format === "jsonl"
      ? jsonlRows(name, open, (keys) => (columns = keys))
      : csvRows(name, open, format === "tsv" ? "\t" : ",", (header) => (columns = header));
  return { columns: () => columns, rows };
}

async function* csvRows(
  name: string,
  open: () => Readable,
  delimiter: string,
  onHeader: (header: string[]) => void
): AsyncGenerator<InputRow> {
  const source = open();
  // The line the last complete record (or the header) ended on: a quote never closed opened on
  // the next one, where the user must look (csv-parse names the end of the file).
  let lastRecordEndLine = 0;
  const options: Options<InputRow, string[]> = {
    bom: true,
    delimiter,
    skip_empty_lines: true,
    // Rows as arrays, made into objects here: csv-parse's own `columns` assigns each cell, so a
    // column named "__proto__" would vanish (or replace the row's prototype) instead of being data.
    relax_column_count: true,
    on_record: (cells, context): InputRow | null => {
      lastRecordEndLine = context.lines;
      if (!header) {
        header = readHeader(cells);
        return null;
      }
      if (cells.length !== header.length) {
        throw new InputError(
          name,
          context.lines,
          `a row of ${cells.length} cells under a header of ${header.length} names`
        );
      }
      const names = header;
      return {
        line: context.lines,
        values: Object.fromEntries(cells.map((cell, index) => [names[index], cell])),
      };
    },
  };
  // csv-parse's typings tie a record type to `columns`; on_record makes the rows here.
  const parser = parse(options as unknown as Options);
  let header: string[] | undefined;
  const readHeader = (cells: string[]): string[] => {
    const names = cells.map((cell) => String(cell).trim());
    const seen = new Set<string>();
    for (const column of names) {
      if (column === "") throw new InputError(name, 1, "the header has an empty column name");
      if (seen.has(column)) throw new InputError(name, 1, `the header repeats "${column}"`);
      seen.add(column);
    }
    onHeader(names);
    return names;
  };
  source.on("error", (error) => parser.destroy(error));
  source.pipe(parser);
  try {
    yield* parser as AsyncIterable<InputRow>;
  } catch (error) {
    throw toInputError(name, error, lastRecordEndLine + 1);
  } finally {
    if (source !== process.stdin) source.destroy();
  }
}

function toInputError(name: string, error: unknown, recordStartLine: number): InputError {
  if (error instanceof InputError) return error;
  const details = error as {
    message?: string;
    lines?: number;
    code?: string;
    record?: unknown[];
    columns?: unknown[];
  };
  const message =
    (details.code === "CSV_RECORD_INCONSISTENT_COLUMNS" ||
      details.code === "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH") &&
    Array.isArray(details.record) &&
    Array.isArray(details.columns)
      ? `a row of ${details.record.length} cells under a header of ${details.columns.length} names`
      : (details.message ?? String(error)).replace(/^Invalid Record Length: /, "");
  if (details.code === undefined || !details.code.startsWith("CSV_")) {
    return new InputError(name, undefined, `cannot read: ${message}`, { cause: error });
  }
  if (details.code === "CSV_QUOTE_NOT_CLOSED") {
    return new InputError(
      name,
      recordStartLine,
      `a quote opened on this line is never closed (the file ends at line ${details.lines}): close it, and write a quote inside a quoted cell as two ("")`,
      { cause: error }
    );
  }
  return new InputError(name, details.lines, message, { cause: error });
}

async function* jsonlRows(
  name: string,
  open: () => Readable,
  onKeys: (keys: string[]) => void
): AsyncGenerator<InputRow> {
  const source = open();
  const lines = createInterface({ input: source, crlfDelay: Infinity });
  let line = 0;
  let first = true;
  try {
    for await (const text of lines) {
      line++;
      if (text.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new InputError(name, line, `not JSON: ${(error as Error).message}`);
      }
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        throw new InputError(name, line, "each line must be a JSON object of inputs");
      }
      if (first) {
        onKeys(Object.keys(value));
        first = false;
      }
      yield { line, values: value as Record<string, unknown> };
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(name, undefined, `cannot read: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    lines.close();
    if (source !== process.stdin) source.destroy();
  }
}
