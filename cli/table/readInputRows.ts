import { constants, createReadStream, openSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable, Transform } from "node:stream";
import { parse, type Options } from "csv-parse";
import { InputError } from "../errors/InputError.js";
import { decodeInput } from "./decodeInput.js";
import { letterColumnName, type InputReading } from "./InputReading.js";
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
 * header); for JSONL it is every key of the objects read so far, in order of first appearance.
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
 * consumer asks for it, so memory does not grow with the file. The bytes are decoded the same
 * way for every format (`decodeInput`: a byte order mark, `--encoding`, else strict UTF-8). CSV
 * goes through csv-parse (quoted cells, CRLF, `--delimiter`, `--no-header-row`); a row with a
 * different number of cells than the header, a malformed line, a byte that is not of the
 * encoding or an unreadable file throws `InputError` naming the line.
 *
 * ## Example
 * ```ts
 * for await (const { line, values } of readInputRows("-", "jsonl").rows) console.log(line, values);
 * ```
 * @param path a file path, or `-` for stdin
 * @param format the table format
 * @param reading encoding, delimiter and header row (see `InputReading`)
 * @return the table
 */
export function readInputRows(
  path: string,
  format: TableFormat,
  reading: InputReading = {}
): InputTable {
  const name = path === "-" ? "stdin" : path;
  let columns: string[] = [];
  const open = (): { source: Readable; text: Transform } => {
    let source: Readable;
    if (path === "-") source = process.stdin;
    else {
      try {
        // Opened here, so that a missing file is reported before anything else happens; never
        // through a symbolic link (a planted link would send another file's rows).
        source = createReadStream(path, {
          fd: openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW),
        });
      } catch (error) {
        throw new InputError(name, undefined, `cannot read: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
    const text = decodeInput(name, reading.encoding);
    source.on("error", (error) => text.destroy(error));
    return { source, text: source.pipe(text) };
  };
  const rows =
    format === "jsonl"
      ? jsonlRows(name, open, (keys) => (columns = keys))
      : csvRows(name, open, reading, format === "tsv" ? "\t" : ",", (header) => (columns = header));
  return { columns: () => columns, rows };
}

async function* csvRows(
  name: string,
  open: () => { source: Readable; text: Transform },
  reading: InputReading,
  defaultDelimiter: string,
  onHeader: (header: string[]) => void
): AsyncGenerator<InputRow> {
  const delimiter = reading.delimiter ?? defaultDelimiter;
  const { source, text } = open();
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
      if (!header && reading.headerRow === false) {
        header = cells.map((_, index) => letterColumnName(index));
        onHeader(header);
      } else if (!header) {
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
    const other = [";", "\t", "|"].find((mark) => mark !== delimiter && names[0].includes(mark));
    if (names.length === 1 && other !== undefined && reading.delimiter === undefined) {
      throw new InputError(
        name,
        1,
        `the header is one column "${names[0]}" that holds "${other === "\t" ? "\\t" : other}"`,
        {
          readingHint: `: if the file is separated by it, pass --delimiter "${other === "\t" ? "\\t" : other}" (or --delimiter "${delimiter === "\t" ? "\\t" : delimiter}" to read one column)`,
        }
      );
    }
    onHeader(names);
    return names;
  };
  text.on("error", (error) => parser.destroy(error));
  text.pipe(parser);
  try {
    yield* parser as AsyncIterable<InputRow>;
  } catch (error) {
    throw toInputError(name, error, lastRecordEndLine + 1);
  } finally {
    source.unpipe(text);
    text.destroy();
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
  open: () => { source: Readable; text: Transform },
  onKeys: (keys: string[]) => void
): AsyncGenerator<InputRow> {
  const { source, text: decoded } = open();
  const lines = createInterface({ input: decoded, crlfDelay: Infinity });
  let line = 0;
  // Every key seen, in order of first appearance: a CSV output keeps keys the first row lacks.
  const keys = new Set<string>();
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
      const before = keys.size;
      for (const key of Object.keys(value)) keys.add(key);
      if (keys.size !== before) onKeys([...keys]);
      yield { line, values: value as Record<string, unknown> };
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(name, undefined, `cannot read: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    lines.close();
    source.unpipe(decoded);
    decoded.destroy();
    if (source !== process.stdin) source.destroy();
  }
}
