import { createReadStream } from "node:fs";
import { parse } from "csv-parse";
import { ROW_STATUSES, type RowStatus } from "spellrun";
import { InputError } from "../errors/InputError.js";
import type { TableFormat } from "./tableFormat.js";
import { toolColumnIndexes, type OutputColumns } from "./OutputColumns.js";

/**
 * One data row of an earlier output: its text exactly as written (newline included) and status.
 *
 * ## Example
 * ```ts
 * const row: KeptRow = { raw: "hi,success,2,,\n", status: "success" };
 * ```
 */
export interface KeptRow {
  raw: string;
  status: RowStatus;
}

/**
 * Streams the data rows of an output a bulk job wrote (CSV/TSV after its header, or JSONL),
 * each with its exact text, so that `spellrun retry` copies the rows it keeps unchanged. A CSV
 * row's status is found by its place in the journal's layout, never by the name `status` (an
 * input column may have that name).
 *
 * ## Example
 * ```ts
 * for await (const row of readKeptRows("out.csv.before-retry", "csv")) console.log(row.status);
 * ```
 * @param path the earlier output
 * @param format its format
 * @param layout the columns the journal recorded for it (CSV/TSV)
 * @return the rows, in order
 */
export async function* readKeptRows(
  path: string,
  format: TableFormat,
  layout: OutputColumns | undefined
): AsyncGenerator<KeptRow> {
  const source = createReadStream(path, { encoding: "utf8" });
  const parser =
    format === "jsonl"
      ? undefined
      : parse({ delimiter: format === "tsv" ? "\t" : ",", raw: true, skip_empty_lines: true });
  try {
    if (!parser) {
      yield* jsonlKeptRows(path, source);
      return;
    }
    source.pipe(parser);
    let header: string[] | undefined;
    let statusColumn = -1;
    for await (const { record, raw } of parser as AsyncIterable<{
      record: string[];
      raw: string;
    }>) {
      if (!header) {
        header = record;
        if (!layout) throw new InputError(path, 1, "its job recorded no columns");
        const places = toolColumnIndexes(layout);
        if (header.length !== places.width) {
          throw new InputError(
            path,
            1,
            `${header.length} columns where the journal recorded ${places.width}: not the output of this job`
          );
        }
        statusColumn = places.status;
        continue;
      }
      yield {
        raw: raw.endsWith("\n") ? raw : `${raw}\n`,
        status: statusOf(path, record[statusColumn]),
      };
    }
  } finally {
    source.destroy();
  }
}

async function* jsonlKeptRows(
  path: string,
  source: AsyncIterable<string>
): AsyncGenerator<KeptRow> {
  let rest = "";
  let line = 0;
  for await (const chunk of source) {
    rest += chunk;
    let end = rest.indexOf("\n");
    while (end >= 0) {
      const text = rest.slice(0, end);
      rest = rest.slice(end + 1);
      line++;
      if (text.trim() !== "") {
        const value = JSON.parse(text) as { status?: unknown };
        yield { raw: `${text}\n`, status: statusOf(path, value.status, line) };
      }
      end = rest.indexOf("\n");
    }
  }
}

function statusOf(path: string, value: unknown, line?: number): RowStatus {
  if (!(ROW_STATUSES as readonly unknown[]).includes(value)) {
    throw new InputError(path, line, `"${String(value)}" is not a row status of spellrun`);
  }
  return value as RowStatus;
}
