import { blockAddress, parseAddress } from "../sheet/a1Address.js";
import { PAYLOAD_BUDGET_BYTES, chunkByBytes, payloadBytes } from "../sheet/payloadBytes.js";
import { TEXT_FORMAT } from "../sheet/toCellWrite.js";

/**
 * The very hidden worksheet that holds the per-row record of the document's bulk jobs. Users do
 * not see it (Excel's Unhide does not list very hidden sheets); it travels with the workbook.
 */
export const ROW_RECORD_SHEET = "SpellRun_rows";

/** Characters per cell: Excel keeps at most 32,767 in one cell. */
const CELL_CHARS = 32_000;

/** Cells read or written as one range: a piece stays well under the payload budget. */
const CELLS_PER_PIECE = Math.max(1, Math.floor(PAYLOAD_BUDGET_BYTES / (2 * (CELL_CHARS + 8))));

/** One field of a job as stored: its column in the record sheet and how many cells it fills. */
interface StoredField {
  column: number;
  cells: number;
  text: string;
  /**
   * True when the cells hold `text` in `CELL_CHARS` pieces (the pane writes them so): a save may
   * then rewrite only the cells from the first change on. False for cells written otherwise.
   */
  aligned: boolean;
}

/** What the pane knows of the record sheet (read once by `openRowRecords`). */
interface RecordSheet {
  exists: boolean;
  /** `jobId` → field name → where it is. */
  jobs: Map<string, Map<string, StoredField>>;
  /** Columns a deleted record left empty, reused first. */
  freeColumns: number[];
  nextColumn: number;
}

/**
 * One record sheet per document: keyed by the document's settings object, which Office gives one
 * task pane for its whole life (and each mock workbook its own).
 */
const opened = new WeakMap<object, RecordSheet>();

function documentKey(): object {
  return Office.context.document.settings as unknown as object;
}

function emptySheet(): RecordSheet {
  return { exists: false, jobs: new Map(), freeColumns: [], nextColumn: 0 };
}

/**
 * Reads the record sheet (its header row, then every record's cells in chunks under the payload
 * limit) into memory, so that `rowRecord` answers without a sync. Call once when the pane opens
 * (and again to forget what memory holds, as a reopened workbook would). A workbook without the
 * sheet has no records.
 *
 * Layout: one column per job field. Row 1 holds `<jobId>|<field>|<cells>`, rows 2.. the field's
 * text, `CELL_CHARS` characters per cell, as Text (so Excel never parses it).
 *
 * ## Example
 * ```ts
 * await openRowRecords();
 * const jobs = loadBulkJobs(); // reads rowRecord(id) for each
 * ```
 */
export async function openRowRecords(): Promise<void> {
  const sheet = emptySheet();
  await Excel.run(async (context) => {
    const found = context.workbook.worksheets.getItemOrNullObject(ROW_RECORD_SHEET);
    const used = found.getUsedRangeOrNullObject(true);
    used.load("address");
    await context.sync();
    if (found.isNullObject) return;
    sheet.exists = true;
    if (used.isNullObject) return;
    const { block } = parseAddress(used.address);
    const header = found.getRange(
      blockAddress({ top: 0, left: 0, rowCount: 1, columnCount: block.left + block.columnCount })
    );
    header.load("values");
    await context.sync();
    const fields: Array<{ jobId: string; field: string; column: number; cells: number }> = [];
    // A header cell comes with the workbook: it may claim no more cells than the sheet uses.
    const usedCells = block.top + block.rowCount - 1;
    (header.values[0] as unknown[]).forEach((cell, column) => {
      const [jobId, field, cells] = String(cell).split("|");
      const claimed = Number(cells);
      if (jobId && field && Number.isSafeInteger(claimed) && claimed >= 0) {
        fields.push({ jobId, field, column, cells: Math.min(claimed, usedCells) });
      } else sheet.freeColumns.push(column);
    });
    sheet.nextColumn = block.left + block.columnCount;
    // Every field's cells in pieces (a field of a million-row job is several MB), several
    // pieces per sync, each sync under the payload budget.
    const pieces: Array<{ field: number; top: number; count: number }> = [];
    fields.forEach((field, index) => {
      for (let top = 0; top < field.cells; top += CELLS_PER_PIECE) {
        pieces.push({ field: index, top, count: Math.min(CELLS_PER_PIECE, field.cells - top) });
      }
    });
    const texts: string[][] = fields.map(() => []);
    for (const [start, end] of chunkByBytes(
      pieces.length,
      (i) => pieces[i].count * (CELL_CHARS + 8),
      PAYLOAD_BUDGET_BYTES
    )) {
      const ranges = pieces.slice(start, end).map((piece) => ({
        piece,
        range: found
          .getRange(
            blockAddress({
              top: 1 + piece.top,
              left: fields[piece.field].column,
              rowCount: piece.count,
              columnCount: 1,
            })
          )
          .load("values"),
      }));
      // One sync per batch of pieces under the payload limit.
      // eslint-disable-next-line office-addins/no-context-sync-in-loop
      await context.sync();
      for (const { piece, range } of ranges) {
        texts[piece.field].push(...(range.values as unknown[][]).map((row) => String(row[0])));
      }
    }
    fields.forEach((field, index) => {
      const job = sheet.jobs.get(field.jobId) ?? new Map<string, StoredField>();
      const cells = texts[index];
      job.set(field.field, {
        column: field.column,
        cells: field.cells,
        text: cells.join(""),
        aligned:
          cells.every(
            (text, i) => text.length === (i < cells.length - 1 ? CELL_CHARS : text.length)
          ) && cells.length === field.cells,
      });
      sheet.jobs.set(field.jobId, job);
    });
  });
  opened.set(documentKey(), sheet);
}

/**
 * A job's per-row record as last saved or read by `openRowRecords` (field → text), undefined
 * when there is none. No sync.
 *
 * ## Example
 * ```ts
 * const fingerprints = rowRecord(job.id)?.fingerprints;
 * ```
 */
export function rowRecord(jobId: string): Record<string, string> | undefined {
  const job = opened.get(documentKey())?.jobs.get(jobId);
  if (!job) return undefined;
  return Object.fromEntries([...job].map(([field, stored]) => [field, stored.text]));
}

/**
 * Saves fields of a job's per-row record (other fields stay as they are): each changed field's
 * column is rewritten from its first changed cell on (a field that grew at its end, such as the
 * kept results, rewrites its last cells only), cells it no longer needs are cleared. Creates the
 * very hidden record sheet the first time. Writes in as few syncs as the payload budget allows
 * (one for a small record).
 *
 * ## Example
 * ```ts
 * await saveRowRecord(job.id, { fingerprints: packed, rows: encodeIndexes(job.rows) });
 * ```
 */
export async function saveRowRecord(
  jobId: string,
  fields: Readonly<Record<string, string>>
): Promise<void> {
  const sheet = opened.get(documentKey()) ?? (await openedSheet());
  const job = sheet.jobs.get(jobId) ?? new Map<string, StoredField>();
  const writes: ColumnWrite[] = [];
  const saved = new Map<string, StoredField>();
  for (const [field, text] of Object.entries(fields)) {
    const before = job.get(field);
    if (before?.text === text) continue;
    const column = before?.column ?? sheet.freeColumns.shift() ?? sheet.nextColumn++;
    const pieces = cellPieces(text);
    const same = before?.aligned ? samePieces(cellPieces(before.text), pieces) : 0;
    // Cells the field filled before and no longer needs are emptied.
    const stale = Math.max(0, (before?.cells ?? 0) - pieces.length);
    const changed = [...pieces.slice(same), ...new Array<string>(stale).fill("")];
    const header = `${jobId}|${field}|${pieces.length}`;
    if (before?.aligned && before.cells === pieces.length) {
      writes.push({ column, top: 1 + same, cells: changed });
    } else {
      writes.push({ column, top: 0, cells: [header] }, { column, top: 1 + same, cells: changed });
    }
    saved.set(field, { column, cells: pieces.length, text, aligned: true });
  }
  if (saved.size === 0) return;
  try {
    await writeColumns(sheet, mergedWrites(writes));
  } catch (error) {
    // What the cells hold now is not known: the next save rewrites these fields whole.
    for (const [field, stored] of saved) {
      const cells = Math.max(stored.cells, job.get(field)?.cells ?? 0);
      job.set(field, { ...stored, cells, aligned: false });
    }
    throw error;
  }
  for (const [field, stored] of saved) job.set(field, stored);
  sheet.jobs.set(jobId, job);
}

/** The writes with empty runs left out and a run that continues another joined to it. */
function mergedWrites(writes: readonly ColumnWrite[]): ColumnWrite[] {
  const merged: ColumnWrite[] = [];
  for (const write of writes) {
    if (write.cells.length === 0) continue;
    const last = merged.at(-1);
    if (last?.column === write.column && last.top + last.cells.length === write.top) {
      last.cells = last.cells.concat(write.cells);
    } else merged.push({ ...write, cells: [...write.cells] });
  }
  return merged;
}

/** A field's text as the cells that hold it, `CELL_CHARS` characters each. */
function cellPieces(text: string): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += CELL_CHARS) pieces.push(text.slice(at, at + CELL_CHARS));
  return pieces;
}

/** How many leading cells two versions of a field share. */
function samePieces(before: readonly string[], after: readonly string[]): number {
  const shorter = Math.min(before.length, after.length);
  const first = before.findIndex((piece, i) => i >= shorter || piece !== after[i]);
  return first < 0 ? shorter : first;
}

/**
 * Deletes a job's per-row record (its columns are emptied and reused later). Nothing to do when
 * it has none.
 *
 * ## Example
 * ```ts
 * await deleteRowRecord(job.id);
 * ```
 */
export async function deleteRowRecord(jobId: string): Promise<void> {
  const sheet = opened.get(documentKey()) ?? (await openedSheet());
  const job = sheet.jobs.get(jobId);
  if (!job) return;
  await writeColumns(
    sheet,
    [...job.values()].map(({ column, cells }) => ({
      column,
      top: 0,
      cells: new Array<string>(cells + 1).fill(""),
    }))
  );
  sheet.freeColumns.push(...[...job.values()].map(({ column }) => column));
  sheet.jobs.delete(jobId);
}

async function openedSheet(): Promise<RecordSheet> {
  await openRowRecords();
  return opened.get(documentKey()) ?? emptySheet();
}

/** Cells of one record column to write, from row `top` (zero-based; row 0 is the header). */
interface ColumnWrite {
  column: number;
  top: number;
  cells: string[];
}

/**
 * Writes runs of column cells as text (Text format first, so nothing is parsed), as many per
 * sync as the payload budget allows; a run larger than the budget is split.
 */
async function writeColumns(sheet: RecordSheet, columns: readonly ColumnWrite[]): Promise<void> {
  // Pieces of at most the budget: a column of a million-row record is several MB.
  const perPiece = CELLS_PER_PIECE;
  const pieces: ColumnWrite[] = [];
  for (const { column, top, cells } of columns) {
    for (let at = 0; at < cells.length; at += perPiece) {
      pieces.push({ column, top: top + at, cells: cells.slice(at, at + perPiece) });
    }
  }
  await Excel.run(async (context) => {
    let target: Excel.Worksheet;
    if (!sheet.exists) {
      target = context.workbook.worksheets.add(ROW_RECORD_SHEET);
      // Very hidden: not listed by Unhide; only code (an add-in, VBA) shows it again.
      target.visibility = Excel.SheetVisibility.veryHidden;
    } else target = context.workbook.worksheets.getItem(ROW_RECORD_SHEET);
    for (const [start, end] of chunkByBytes(
      pieces.length,
      (i) => 2 * payloadBytes(pieces[i].cells),
      PAYLOAD_BUDGET_BYTES
    )) {
      for (const piece of pieces.slice(start, end)) {
        const range = target.getRange(
          blockAddress({
            top: piece.top,
            left: piece.column,
            rowCount: piece.cells.length,
            columnCount: 1,
          })
        );
        range.numberFormat = piece.cells.map(() => [TEXT_FORMAT]);
        range.values = piece.cells.map((text) => [text]);
      }
      // One sync per batch under the payload limit.
      // eslint-disable-next-line office-addins/no-context-sync-in-loop
      await context.sync();
      sheet.exists = true;
    }
  });
}
