import { blockAddress, columnName, intersectBlocks, parseSelectionAddress } from "./a1Address.js";
import type { CellBlock } from "./a1Address.js";
import { STATUS_HEADER } from "./outputLayout.js";
import { readValuesInChunks } from "./readValuesInChunks.js";
import type { CellScalar } from "./toCellWrite.js";

/** How far right of a selection earlier output headers are looked for. */
export const MAX_OUTPUT_COLUMNS = 64;

/** Columns right of a selection (status column first) checked for the user's data before a run. */
export const FREE_COLUMNS_CHECKED = 8;

/**
 * The selected range as the bulk view needs it.
 *
 * ## Example
 * ```ts
 * const selection: SelectionData = await readSelection();
 * console.log(`${selection.rows.length} rows, inputs ${selection.headers.join(", ")}`);
 * ```
 */
export interface SelectionData {
  sheet: string;
  /** The sheet's id: unlike its name, it stays the same when the user renames the sheet. */
  sheetId: string;
  /** The whole selection, header row included (absolute, zero-based). */
  block: CellBlock;
  /**
   * Where the status column goes (absolute): right of the selection unless the user picked
   * another column. @default block.left + block.columnCount
   */
  statusColumn?: number;
  /** First row: the input names as written in the sheet. */
  headers: CellScalar[];
  /**
   * The row just above the selection, selection columns only (to notice a block selected
   * without its header row, see `headerRowAbove`). Absent at the sheet's first row.
   */
  rowAbove?: CellScalar[];
  /** Every further row, selection columns only (blank rows included; planning skips them). */
  rows: CellScalar[][];
  /**
   * Per data row, the `numberFormat` of each selection cell (to send date-formatted cells as the
   * date, not the serial). Absent when formats were not read.
   */
  formats?: string[][];
  /**
   * Data row offsets (0 = the row under the header) that are hidden or filtered out: the plan
   * skips them unless asked to run them. Absent when not read.
   */
  hiddenRows?: number[];
  /** Results of an earlier run right of the selection, if its status column is there. */
  existing: {
    /** Output names found in the header row right of the status column. */
    outputNames: string[];
    /** Per data row: the status cell, then one cell per output name. Empty when no status column. */
    cells: CellScalar[][];
    /** Header right of the selection when it is neither empty nor the status header. */
    blockingHeader?: string;
    /**
     * Without an earlier run's status column: the columns from the status column on (offsets
     * 0..`FREE_COLUMNS_CHECKED`-1, 0 being the status column) whose header or any data cell
     * holds something, with the first such cell's address. The run writes there.
     */
    occupied?: Array<{ offset: number; address: string }>;
  };
  /**
   * Set when the user selected whole columns or rows (`A:C`, `3:5`): that address, which the
   * read cut to the sheet's used range (`block`).
   */
  cutFrom?: string;
  /** `context.sync()` calls spent reading. */
  syncs: number;
}

/**
 * A range of a sheet, by the sheet's id (a rename does not matter): the block read before, when
 * the user then clicks elsewhere (to pick a column for the results).
 */
export interface SheetBlock {
  sheetId: string;
  block: CellBlock;
}

/**
 * Reads the selected range (or `options.range`): its address, its header row, its rows with their number formats (in chunks under Office's
 * payload limit), and the status and output columns an earlier run left right of it.
 *
 * Syncs: one for the address, one for the header rows, then one per chunk of rows.
 *
 * With `options.statusColumn` (a column the user picked, right of the selection), status and
 * outputs are looked for, and checked for the user's data, there instead of right beside it.
 * With `options.range`, that block is read instead of the selection (the selection may have
 * moved since: the user clicked the column to pick).
 *
 * ## Example
 * ```ts
 * const { sheet, block, headers, rows } = await readSelection();
 * ```
 */
export async function readSelection(
  budgetBytes?: number,
  options: { statusColumn?: number; range?: SheetBlock } = {}
): Promise<SelectionData> {
  return Excel.run(async (context) => {
    const selected = options.range
      ? context.workbook.worksheets
          .getItem(options.range.sheetId)
          .getRange(blockAddress(options.range.block))
      : context.workbook.getSelectedRange();
    selected.load("address, worksheet/id");
    // In the same sync: the cells in use, to which whole columns or rows are cut (a whole
    // column is 1,048,576 rows, most of them empty).
    const used = selected.worksheet.getUsedRangeOrNullObject(true).load("address");
    await context.sync();
    const {
      sheet: sheetName,
      block,
      cutFrom,
    } = selectedBlock(selected.address, used.isNullObject ? undefined : used.address);
    const sheet = context.workbook.worksheets.getItem(sheetName);
    const statusColumn = options.statusColumn ?? block.left + block.columnCount;
    if (statusColumn < block.left + block.columnCount) {
      throw new Error(
        `Column ${columnName(statusColumn)} is inside or left of the selection: pick a column right of it.`
      );
    }
    // Columns between the selection and the picked status column: read, never used.
    const gap = statusColumn - (block.left + block.columnCount);

    // The header row of the selection and of the columns right of it, in one read.
    const headerRange = sheet.getRange(
      blockAddress({
        ...block,
        rowCount: 1,
        columnCount: block.columnCount + gap + MAX_OUTPUT_COLUMNS,
      })
    );
    headerRange.load("values");
    // The row above, in the same sync: the names may be there (selected without its header row).
    const above =
      block.top > 0
        ? sheet.getRange(blockAddress({ ...block, top: block.top - 1, rowCount: 1 })).load("values")
        : undefined;
    await context.sync();
    const headerRow = headerRange.values[0] as CellScalar[];
    const headers = headerRow.slice(0, block.columnCount);
    const right = headerRow.slice(block.columnCount + gap);
    const hasStatus = String(right[0]).trim() === STATUS_HEADER;
    const outputNames: string[] = [];
    if (hasStatus) {
      for (const name of right.slice(1)) {
        if (String(name).trim() === "") break;
        outputNames.push(String(name));
      }
    }
    const blockingHeader =
      !hasStatus && String(right[0]).trim() !== "" ? String(right[0]) : undefined;

    // Data rows, with the earlier results beside them when there are any.
    // Without a status column of ours, the columns the run would write are read too, so that
    // nothing the user typed there is overwritten.
    const width =
      block.columnCount + gap + (hasStatus ? 1 + outputNames.length : FREE_COLUMNS_CHECKED);
    const data =
      block.rowCount > 1
        ? await readValuesInChunks(
            context,
            sheet,
            {
              top: block.top + 1,
              left: block.left,
              rowCount: block.rowCount - 1,
              columnCount: width,
            },
            budgetBytes,
            // Hidden and filtered-out rows are read with the values, chunk by chunk.
            { formats: true, formatColumns: block.columnCount, hiddenRows: true }
          )
        : { rows: [], formats: [], hiddenRows: [], syncs: 0 };
    return {
      sheet: sheetName,
      sheetId: selected.worksheet.id,
      block,
      statusColumn,
      hiddenRows: data.hiddenRows ?? [],
      headers,
      ...(above ? { rowAbove: above.values[0] as CellScalar[] } : {}),
      rows: data.rows.map((row) => row.slice(0, block.columnCount)),
      formats: (data.formats ?? []).map((row) => row.slice(0, block.columnCount)),
      existing: {
        outputNames,
        cells: hasStatus ? data.rows.map((row) => row.slice(block.columnCount + gap)) : [],
        blockingHeader,
        occupied: hasStatus
          ? []
          : occupiedColumns(
              block.top,
              statusColumn,
              right,
              data.rows.map((row) => row.slice(block.columnCount + gap))
            ),
      },
      ...(cutFrom !== undefined ? { cutFrom } : {}),
      syncs: 2 + data.syncs,
    };
  });
}

/**
 * The selection as a block of cells. Whole columns or rows (`A:C`, `3:5`) are cut to the used
 * range (`usedAddress`, values only): the block starts at its first used row (the header row)
 * and ends at its last.
 */
function selectedBlock(
  address: string,
  usedAddress: string | undefined
): { sheet: string; block: CellBlock; cutFrom?: string } {
  const { sheet, block, lines } = parseSelectionAddress(address);
  if (!lines) return { sheet, block };
  const cells = address.slice(address.lastIndexOf("!") + 1);
  const inUse = usedAddress
    ? intersectBlocks(block, parseSelectionAddress(usedAddress).block)
    : undefined;
  if (!inUse) {
    throw new Error(
      `The selected ${lines} (${cells}) are empty: select the rows to run, header row first.`
    );
  }
  return { sheet, block: inUse, cutFrom: cells };
}

/** The columns from the status column on whose header or data cells are not empty (first cell named). */
function occupiedColumns(
  headerRow: number,
  statusColumn: number,
  headerRight: readonly CellScalar[],
  rows: readonly CellScalar[][]
): Array<{ offset: number; address: string }> {
  const occupied: Array<{ offset: number; address: string }> = [];
  const filled = (value: CellScalar | undefined) =>
    value !== undefined && value !== null && String(value).trim() !== "";
  for (let offset = 0; offset < FREE_COLUMNS_CHECKED; offset++) {
    const column = columnName(statusColumn + offset);
    if (filled(headerRight[offset])) {
      occupied.push({ offset, address: `${column}${headerRow + 1}` });
      continue;
    }
    const row = rows.findIndex((cells) => filled(cells[offset]));
    if (row >= 0) occupied.push({ offset, address: `${column}${headerRow + 2 + row}` });
  }
  return occupied;
}
