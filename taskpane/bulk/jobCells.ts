import type { BulkJob } from "../storedJob/BulkJob.js";
import { readRowInputs } from "../sheet/readRowInputs.js";
import { rowFingerprint } from "../sheet/rowFingerprint.js";
import type { CellScalar } from "../sheet/toCellWrite.js";

/**
 * One record's input cells: raw values and number formats, in input order.
 *
 * ## Example
 * ```ts
 * const cells: RowCells = { values: ["Hello"], formats: ["@"] };
 * ```
 */
export interface RowCells {
  values: CellScalar[];
  formats?: string[];
}

/**
 * A resumed job's input cells, read once before re-attaching (so a result whose row is deleted
 * during the resumed run is kept with its inputs): a row's cells only when they still match the
 * fingerprint taken at submission; none when the sheet cannot be read.
 *
 * ## Example
 * ```ts
 * const cells = await jobCells(job);
 * ```
 *
 * @param job The stored job.
 * @return Per run: its input cells, or undefined.
 */
export async function jobCells(job: BulkJob): Promise<Array<RowCells | undefined>> {
  const rows = job.rows.filter((row) => row >= 0);
  if (rows.length === 0) return [];
  try {
    const { values, formats } = await readRowInputs(
      job.sheetId ?? job.sheet,
      rows,
      job.inputColumns
    );
    const byRow = new Map(rows.map((row, i) => [row, i]));
    return job.rows.map((row, run) => {
      const i = byRow.get(row);
      return i === undefined || rowFingerprint(values[i]) !== job.fingerprints[run]
        ? undefined
        : { values: values[i], formats: formats[i] };
    });
  } catch {
    return [];
  }
}
