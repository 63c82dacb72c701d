import { blockAddress } from "./a1Address.js";
import type { CellBlock } from "./a1Address.js";
import { PAYLOAD_BUDGET_BYTES, payloadBytes } from "./payloadBytes.js";
import type { CellScalar } from "./toCellWrite.js";

/** Cells in the first read, before anything is known about their size. */
const FIRST_CHUNK_CELLS = 2_000;

/**
 * Reads the values of a block in row chunks, each one `context.sync()`, each response kept
 * under Office's 5 MB payload limit (with `withFormats`, each cell's `numberFormat` is read in the same sync): the first chunk is small, later chunks are sized from the
 * largest bytes-per-row seen so far, and a chunk that Office still refuses as too large is read
 * again in halves.
 *
 * ## Example
 * ```ts
 * await Excel.run(async (context) => {
 *   const sheet = context.workbook.worksheets.getItem("Sheet1");
 *   const rows = await readValuesInChunks(context, sheet, { top: 1, left: 0, rowCount: 10_000, columnCount: 3 });
 * });
 * ```
 * @return the rows of values (and of number formats, with `withFormats`) and the number of syncs spent
 */
export async function readValuesInChunks(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  block: CellBlock,
  budgetBytes = PAYLOAD_BUDGET_BYTES,
  withFormats = false
): Promise<{ rows: CellScalar[][]; formats?: string[][]; syncs: number }> {
  const rows: CellScalar[][] = [];
  const formats: string[][] = [];
  let syncs = 0;
  let chunkRows = Math.max(1, Math.floor(FIRST_CHUNK_CELLS / Math.max(1, block.columnCount)));
  let largestRowBytes = 0;
  let offset = 0;
  while (offset < block.rowCount) {
    const count = Math.min(chunkRows, block.rowCount - offset);
    const range = sheet.getRange(
      blockAddress({ ...block, top: block.top + offset, rowCount: count })
    );
    if (withFormats) range.load("values, numberFormat");
    else range.load("values");
    try {
      syncs++;
      // One sync per chunk on purpose: a single sync would exceed Office's payload limit.
      // eslint-disable-next-line office-addins/no-context-sync-in-loop
      await context.sync();
    } catch (error) {
      if (isPayloadTooLarge(error) && count > 1) {
        chunkRows = Math.ceil(count / 2);
        continue;
      }
      throw error;
    }
    const values = range.values as CellScalar[][];
    const chunkFormats = withFormats ? (range.numberFormat as string[][]) : [];
    values.forEach((row, r) => {
      const rowFormats = chunkFormats[r];
      largestRowBytes = Math.max(
        largestRowBytes,
        payloadBytes(row) + (rowFormats ? payloadBytes(rowFormats) : 0)
      );
      rows.push(row);
      if (rowFormats) formats.push(rowFormats);
    });
    offset += count;
    chunkRows = Math.max(1, Math.floor(budgetBytes / Math.max(1, largestRowBytes)));
  }
  return withFormats ? { rows, formats, syncs } : { rows, syncs };
}

/**
 * True for Office's "payload too large" errors (`RequestPayloadSizeLimitExceeded`,
 * `ResponsePayloadSizeLimitExceeded`).
 *
 * ## Example
 * ```ts
 * if (isPayloadTooLarge(error)) splitAndRetry();
 * ```
 */
export function isPayloadTooLarge(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.endsWith("PayloadSizeLimitExceeded");
}
