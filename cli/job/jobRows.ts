import { RETRYABLE_STATUSES } from "spellrun";
import { CliError } from "../errors/CliError.js";
import type { JobRecord } from "./JournalRecord.js";
import type { JobRow } from "./JobRow.js";
import { readInputRows } from "../table/readInputRows.js";
import { readKeptRows } from "../table/readKeptRows.js";
import type { OutputColumns } from "../table/OutputColumns.js";

/**
 * The rows of a job, read from its input as they come. For a retry job, each input row is
 * paired with the earlier output's row in the same place: a row that needs no run again is
 * kept (copied, never sent); failed, errored, cancelled and expired rows (and `unknown` ones
 * when the retry was asked to) are run, with the input's values of now.
 *
 * ## Example
 * ```ts
 * const { rows, columns } = jobRows(job);
 * for await (const row of rows) console.log(row.values, row.kept?.status);
 * ```
 * @param job the job record
 * @param layout the columns the journal recorded (a retry finds the earlier status by them)
 * @return the rows and the input's columns (known once its header was read)
 */
export function jobRows(
  job: JobRecord,
  layout?: OutputColumns
): { rows: AsyncIterable<JobRow>; columns: () => string[] } {
  const table = readInputRows(job.input, job.inputFormat);
  const { retryOf } = job;
  if (retryOf === undefined) return { rows: table.rows, columns: table.columns };
  return { rows: pairedRows(job, table.rows, retryOf, layout), columns: table.columns };
}

async function* pairedRows(
  job: JobRecord,
  inputRows: AsyncIterable<{ values: Record<string, unknown> }>,
  retryOf: string,
  layout: OutputColumns | undefined
): AsyncGenerator<JobRow> {
  const kept = readKeptRows(retryOf, job.outputFormat, layout);
  let place = 0;
  try {
    for await (const { values } of inputRows) {
      const earlier = await kept.next();
      place++;
      if (earlier.done) {
        // Rows the earlier job never reached: run.
        yield { values };
        continue;
      }
      const { status } = earlier.value;
      const runAgain =
        RETRYABLE_STATUSES.includes(status) || (status === "unknown" && job.retryUnknown === true);
      yield runAgain ? { values } : { values, kept: earlier.value };
    }
    if (!(await kept.next()).done) {
      throw new CliError(
        `${job.input} has ${place} rows, fewer than the earlier output ${retryOf}: the input changed since the job ran`
      );
    }
  } finally {
    await kept.return(undefined);
  }
}
