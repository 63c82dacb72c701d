import { blockAddress, parseAddress } from "./a1Address.js";
import type { CellBlock } from "./a1Address.js";
import { MAX_OUTPUT_COLUMNS } from "./readSelection.js";
import { readValuesInChunks } from "./readValuesInChunks.js";
import { rowFingerprint } from "./rowFingerprint.js";
import type { CellScalar } from "./toCellWrite.js";
import type { WriteTarget } from "./WriteTarget.js";

/**
 * The block of a bulk could not be found again: its name was deleted, or an input column was
 * removed or renamed. Nothing is written; the results stay in the job.
 *
 * ## Example
 * ```ts
 * if (error instanceof BlockLostError) showKeptResults();
 * ```
 */
export class BlockLostError extends Error {
  override name = "BlockLostError";
}

/**
 * A new workbook-scoped name for a bulk's block (letters, digits, underscore: a valid name that
 * cannot be a cell reference).
 *
 * ## Example
 * ```ts
 * blockName(); // "SpellRun_lq3k9x_4f2a"
 * ```
 */
export function blockName(): string {
  return `SpellRun_${Date.now().toString(36)}_${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
}

/**
 * Queues the name over the block (header row to last data row, first input column to the
 * status column). Excel moves and resizes it on every insert and delete of rows or columns, also
 * while the task pane or the workbook is closed. No sync.
 *
 * ## Example
 * ```ts
 * addBlockName(context, sheet, job.blockName, { top: 0, left: 0, rowCount: 501, columnCount: 3 });
 * ```
 */
export function addBlockName(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  name: string,
  block: CellBlock
): void {
  context.workbook.names.add(name, sheet.getRange(blockAddress(block)));
}

/**
 * Deletes the block's name when its bulk is over (finished, cancelled, forgotten). One sync to
 * find it, one to delete; a name already gone is fine.
 *
 * ## Example
 * ```ts
 * await deleteBlockName(job.blockName);
 * ```
 */
export async function deleteBlockName(name: string): Promise<void> {
  await Excel.run(async (context) => {
    const item = context.workbook.names.getItemOrNullObject(name);
    await context.sync();
    if (!item.isNullObject) item.delete();
    await context.sync();
  });
}

/**
 * Finds where the block of `target` is now, before anything is written: loads the name's
 * address and the header row (one sync; a second only when the block moved), then sets the
 * target's header row, input columns (found by their header text), status column (the name's
 * right edge), output columns (by their header text right of it) and the rows of its runs
 * (shifted by as much as the block moved). Columns right of the status column that hold a header
 * of the user's end the run's own columns (`ownedWidth`).
 *
 * @throws BlockLostError when the name or an input column can no longer be found
 */
export async function locateBlock(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  target: WriteTarget,
  report: { readSyncs: number }
): Promise<void> {
  const name = target.blockName as string;
  const inputHeaders = target.inputHeaders ?? [];
  const range = context.workbook.names.getItem(name).getRange();
  range.load("address");
  const left = Math.min(...target.inputColumns);
  let header = headerRange(sheet, target.headerRow, left, target.layout.statusColumn);
  report.readSyncs++;
  try {
    await context.sync();
  } catch (error) {
    throw new BlockLostError(
      `The block of this bulk can no longer be found (its name ${name} was deleted or its rows were all deleted): ${describe(error)}`
    );
  }
  const { block } = parseAddress(range.address);
  const status = block.left + block.columnCount - 1;
  if (
    block.top !== target.headerRow ||
    block.left !== left ||
    status !== target.layout.statusColumn
  ) {
    header = headerRange(sheet, block.top, block.left, status);
    report.readSyncs++;
    // Only when the block moved: its header row is then somewhere else.
    await context.sync();
  }
  const cells = header.values[0] as CellScalar[];
  const text = (column: number) => String(cells[column - block.left] ?? "").trim();

  // Inputs by their header text, in order (the k-th column with a repeated header is the k-th).
  const used = new Set<number>();
  const inputColumns = inputHeaders.map((wanted) => {
    for (let column = block.left; column < status; column++) {
      if (!used.has(column) && text(column) === wanted.trim()) {
        used.add(column);
        return column;
      }
    }
    throw new BlockLostError(
      `The input column "${wanted}" is no longer in the block (deleted or renamed), so rows cannot be checked: nothing is written.`
    );
  });

  // Outputs by their header text right of the status column; a header of the user's ends ours.
  const found = new Map<string, number>();
  const names = new Set(target.layout.names);
  let owned = target.ownedWidth ?? target.layout.width;
  for (let column = status + 1; column <= status + MAX_OUTPUT_COLUMNS; column++) {
    const value = text(column);
    if (value === "") continue;
    if (names.has(value) && !found.has(value)) found.set(value, column);
    else owned = Math.min(owned, column - status);
  }
  const shift = block.top - target.headerRow;
  if (shift !== 0 && target.rows) {
    for (let run = 0; run < target.rows.length; run++) {
      if (target.rows[run] >= 0) target.rows[run] += shift;
    }
  }
  const moved =
    shift !== 0 ||
    status !== target.layout.statusColumn ||
    inputColumns.some((column, i) => column !== target.inputColumns[i]);
  target.headerRow = block.top;
  target.inputColumns = inputColumns;
  target.layout.relocate(status, found);
  // Known outputs right of a column of the user's stay the run's; new ones go past them.
  target.ownedWidth = Math.max(
    Math.min(owned, target.ownedWidth ?? owned),
    ...[...found.values()].map((column) => column - status + 1),
    1
  );
  target.dataRows = block.rowCount - 1;
  if (moved) target.moved = true;
}

/**
 * Finds every run's row again by its inputs' fingerprint (after a sort, or an insert or delete
 * inside the block): reads the input columns of the whole block (in chunks) and gives each run a
 * row holding its fingerprint, keeping a run where it is when it still matches. A run whose
 * inputs are in no row any more gets row -1. Updates `target.rows` in place.
 *
 * @return the rows (absolute) that no run claims, where a stale mark may go
 */
export async function relocateRows(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  target: WriteTarget,
  report: { readSyncs: number },
  budgetBytes?: number
): Promise<Set<number>> {
  const rows = target.rows as number[];
  const fingerprints = target.fingerprints as string[];
  const left = Math.min(...target.inputColumns);
  const top = target.headerRow + 1;
  const { rows: cells, syncs } = await readValuesInChunks(
    context,
    sheet,
    {
      top,
      left,
      rowCount: Math.max(1, target.dataRows ?? 1),
      columnCount: Math.max(...target.inputColumns) - left + 1,
    },
    budgetBytes
  );
  report.readSyncs += syncs;
  const now = cells.map((row) => rowFingerprint(target.inputColumns.map((c) => row[c - left])));
  const claimed = new Set<number>();
  // Runs still where they were keep their row; the others take the first free row that matches.
  const unplaced: number[] = [];
  rows.forEach((row, run) => {
    if (row >= top && now[row - top] === fingerprints[run] && !claimed.has(row)) claimed.add(row);
    else unplaced.push(run);
  });
  const free = new Map<string, number[]>();
  now.forEach((fingerprint, i) => {
    if (claimed.has(top + i)) return;
    const list = free.get(fingerprint) ?? [];
    list.push(top + i);
    free.set(fingerprint, list);
  });
  for (const run of unplaced) {
    const row = free.get(fingerprints[run])?.shift();
    rows[run] = row ?? -1;
    if (row !== undefined) claimed.add(row);
  }
  target.moved = true;
  const unclaimed = new Set<number>();
  now.forEach((_, i) => {
    if (!claimed.has(top + i)) unclaimed.add(top + i);
  });
  return unclaimed;
}

function headerRange(
  sheet: Excel.Worksheet,
  row: number,
  left: number,
  status: number
): Excel.Range {
  const range = sheet.getRange(
    blockAddress({
      top: row,
      left,
      rowCount: 1,
      columnCount: status - left + 1 + MAX_OUTPUT_COLUMNS,
    })
  );
  range.load("values");
  return range;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
