import { blockAddress, columnName } from "../sheet/a1Address.js";
import type { BulkJob, KeptResult } from "../storedJob/BulkJob.js";
import { toCellWrite, type CellScalar } from "../sheet/toCellWrite.js";
import { locateBlock } from "../sheet/trackedBlock.js";
import { writeTargetOf } from "../storedJob/writeTargetOf.js";

/**
 * The rows under a bulk's block hold something in a column the kept results would be written
 * to: nothing was written (copy them instead).
 */
export class KeptRowsOccupiedError extends Error {
  override readonly name = "KeptRowsOccupiedError";
}

/**
 * Where `writeKeptBelow` put the kept results.
 *
 * ## Example
 * ```ts
 * const { address, rows } = await writeKeptBelow(job, kept); // "Sheet1!A12:D13", 2
 * ```
 */
export interface KeptRowsWritten {
  /** The rows written, as an A1 address with the sheet's name. */
  address: string;
  rows: number;
}

/**
 * Writes results whose rows were deleted during the run (see `KeptResult`) as new records right
 * under the block: each its inputs (when they were known: not for a row deleted while the
 * workbook was closed), its status and its outputs, in the columns found by their header text
 * (outputs whose column is no longer there are left out; Copy kept results has them all).
 *
 * The block is found by its workbook name (`locateBlock`, 1–2 syncs); the rows under it are read
 * (1 sync) and must be empty in every column written, otherwise nothing is written and
 * `KeptRowsOccupiedError` says where; then one write sync (text in Text-formatted cells, so `=…`
 * stays text; inputs keep the number format they had).
 *
 * ## Example
 * ```ts
 * await writeKeptBelow(job, loadKeptResults(job.id));
 * ```
 * @throws KeptRowsOccupiedError when a cell to write holds something
 * @throws BlockLostError when the block's name or an input column can no longer be found
 */
export async function writeKeptBelow(
  job: BulkJob,
  kept: readonly KeptResult[]
): Promise<KeptRowsWritten> {
  if (kept.length === 0) throw new Error("No kept results to write.");
  if (!job.blockName) throw new Error("This bulk's block has no name, so it cannot be found.");
  return Excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(job.sheetId ?? job.sheet);
    const target = writeTargetOf(job, "block");
    await locateBlock(context, sheet, target, { readSyncs: 0 });
    const status = target.layout.statusColumn;
    const top = target.headerRow + 1 + (target.dataRows ?? 0);
    const left = Math.min(...target.inputColumns, status);
    const width = status + target.layout.width - left;
    const header = sheet.getRange(
      blockAddress({ top: target.headerRow, left, rowCount: 1, columnCount: width })
    );
    const area = sheet.getRange(
      blockAddress({ top, left, rowCount: kept.length, columnCount: width })
    );
    header.load("values");
    area.load("formulas");
    area.load("address");
    await context.sync();

    // Only outputs whose header is really there: a column the layout merely guessed is not ours.
    const headerText = (header.values[0] as CellScalar[]).map((cell) => String(cell).trim());
    const outputColumns = target.layout.names
      .map((name) => ({ name, column: target.layout.columnOf(name) }))
      .filter(({ name, column }) => headerText[column - left] === name);
    const written = [...target.inputColumns, status, ...outputColumns.map(({ column }) => column)];
    const formulas = area.formulas as unknown[][];
    for (let r = 0; r < kept.length; r++) {
      for (const column of written) {
        if (String(formulas[r][column - left] ?? "") !== "") {
          throw new KeptRowsOccupiedError(
            `Cell ${columnName(column)}${top + r + 1} under the block is not empty, so the kept ` +
              "results were not written. Copy them instead, or clear the rows under the block."
          );
        }
      }
    }

    const values: Array<Array<CellScalar | null>> = [];
    const formats: Array<Array<string | null>> = [];
    kept.forEach((result) => {
      const rowValues: Array<CellScalar | null> = new Array<CellScalar | null>(width).fill(null);
      const rowFormats: Array<string | null> = new Array<string | null>(width).fill(null);
      const put = (column: number, value: unknown, format?: string) => {
        const cell = toCellWrite(value);
        rowValues[column - left] = cell.value;
        // A number keeps the format it had (a date stays a date); text goes into a Text cell.
        rowFormats[column - left] =
          format !== undefined && typeof cell.value !== "string" ? format : cell.numberFormat;
      };
      target.inputColumns.forEach((column, i) => {
        if (result.inputs) put(column, result.inputs[i], result.formats?.[i]);
      });
      put(status, result.inputs ? result.status : `${result.status} (inputs not known)`);
      for (const { name, column } of outputColumns) put(column, result.outputs?.[name]);
      values.push(rowValues);
      formats.push(rowFormats);
    });
    area.numberFormat = formats as string[][];
    area.values = values as CellScalar[][];
    await context.sync();
    return { address: area.address, rows: kept.length };
  });
}
