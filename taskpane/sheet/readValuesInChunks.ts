import { blockAddress, parseAddress } from "./a1Address.js";
import type { CellBlock } from "./a1Address.js";
import { PAYLOAD_BUDGET_BYTES, payloadBytes } from "./payloadBytes.js";
import type { CellScalar } from "./toCellWrite.js";

/** Cells in the first read, before anything is known about their size. */
const FIRST_CHUNK_CELLS = 2_000;

/**
 * Reads the values of a block in row chunks, each one `context.sync()`, each response kept
 * under Office's 5 MB payload limit: the first chunk is small, later chunks are sized from the
 * largest bytes-per-row seen so far, and a chunk that Office still refuses as too large is read
 * again in halves. With `withFormats` (or `{ formats: true }`), each cell's `numberFormat` is
 * read in the same sync (`formatColumns`: of the first columns only); with `{ hiddenRows: true }`, so are the addresses of the chunk's visible
 * rows (a `RangeView` of its first column, ExcelApi 1.3), whose missing rows are returned as
 * `hiddenRows` (offsets in the block): over a whole sheet that list alone is ~20 MB, so it is
 * chunked with the values instead of read in one sync.
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
  what: boolean | { formats?: boolean; formatColumns?: number; hiddenRows?: boolean } = false
): Promise<{ rows: CellScalar[][]; formats?: string[][]; hiddenRows?: number[]; syncs: number }> {
  const withFormats = typeof what === "boolean" ? what : what.formats === true;
  const withHidden = typeof what === "object" && what.hiddenRows === true;
  // Formats of the first columns only, when the others' are not needed (half the response).
  const formatColumns = Math.min(
    block.columnCount,
    (typeof what === "object" ? what.formatColumns : undefined) ?? block.columnCount
  );
  const rows: CellScalar[][] = [];
  const formats: string[][] = [];
  const hiddenRows: number[] = [];
  let syncs = 0;
  let chunkRows = Math.max(1, Math.floor(FIRST_CHUNK_CELLS / Math.max(1, block.columnCount)));
  let largestRowBytes = 0;
  let offset = 0;
  while (offset < block.rowCount) {
    const count = Math.min(chunkRows, block.rowCount - offset);
    const range = sheet.getRange(
      blockAddress({ ...block, top: block.top + offset, rowCount: count })
    );
    range.load("values");
    const formatRange = !withFormats
      ? undefined
      : formatColumns === block.columnCount
        ? range.load("numberFormat")
        : sheet
            .getRange(
              blockAddress({
                ...block,
                top: block.top + offset,
                rowCount: count,
                columnCount: formatColumns,
              })
            )
            .load("numberFormat");
    const visible = withHidden
      ? sheet
          .getRange(
            blockAddress({ ...block, top: block.top + offset, rowCount: count, columnCount: 1 })
          )
          .getVisibleView()
          .load("cellAddresses")
      : undefined;
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
    const chunkFormats = formatRange ? (formatRange.numberFormat as string[][]) : [];
    // The visible rows' addresses count towards the response: about as many bytes per row.
    let addressBytesPerRow = 0;
    if (visible) {
      const addresses = visible.cellAddresses as string[][];
      addressBytesPerRow = Math.ceil(payloadBytes(addresses) / Math.max(1, addresses.length));
      const shown = new Set(addresses.map((row) => parseAddress(row[0]).block.top));
      for (let r = 0; r < count; r++) {
        if (!shown.has(block.top + offset + r)) hiddenRows.push(offset + r);
      }
    }
    values.forEach((row, r) => {
      const rowFormats = chunkFormats[r];
      largestRowBytes = Math.max(
        largestRowBytes,
        payloadBytes(row) + (rowFormats ? payloadBytes(rowFormats) : 0) + addressBytesPerRow
      );
      rows.push(row);
      if (rowFormats) formats.push(rowFormats);
    });
    offset += count;
    chunkRows = Math.max(1, Math.floor(budgetBytes / Math.max(1, largestRowBytes)));
  }
  return {
    rows,
    ...(withFormats ? { formats } : {}),
    ...(withHidden ? { hiddenRows } : {}),
    syncs,
  };
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
