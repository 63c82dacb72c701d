import { blockAddress, columnName, parseAddress } from "./a1Address.js";
import { PAYLOAD_BUDGET_BYTES, chunkByBytes, payloadBytes } from "./payloadBytes.js";
import { TEXT_FORMAT } from "./toCellWrite.js";

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
    (header.values[0] as unknown[]).forEach((cell, column) => {
      const [jobId, field, cells] = String(cell).split("|");
      if (jobId && field && Number(cells) >= 0) {
        fields.push({ jobId, field, column, cells: Number(cells) });
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
      job.set(field.field, {
        column: field.column,
        cells: field.cells,
        text: texts[index].join(""),
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
 * Saves fields of a job's per-row record (other fields stay as they are): each field's column
 * is rewritten, cells it no longer needs are cleared. Creates the very hidden record sheet the
 * first time. Writes in as few syncs as the payload budget allows (one for a small record).
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
  const writes: Array<{ column: number; cells: string[] }> = [];
  for (const [field, text] of Object.entries(fields)) {
    const before = job.get(field);
    if (before?.text === text) continue;
    const column = before?.column ?? sheet.freeColumns.shift() ?? sheet.nextColumn++;
    const pieces: string[] = [];
    for (let at = 0; at < text.length; at += CELL_CHARS)
      pieces.push(text.slice(at, at + CELL_CHARS));
    // Cells the field filled before and no longer needs are emptied.
    const stale = Math.max(0, (before?.cells ?? 0) - pieces.length);
    writes.push({
      column,
      cells: [
        `${jobId}|${field}|${pieces.length}`,
        ...pieces,
        ...new Array<string>(stale).fill(""),
      ],
    });
    job.set(field, { column, cells: pieces.length, text });
  }
  if (writes.length === 0) return;
  await writeColumns(sheet, writes);
  sheet.jobs.set(jobId, job);
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

/**
 * Writes whole columns of text from row 1 (Text format first, so nothing is parsed), as many
 * columns per sync as the payload budget allows; a column larger than the budget is split.
 */
async function writeColumns(
  sheet: RecordSheet,
  columns: ReadonlyArray<{ column: number; cells: string[] }>
): Promise<void> {
  // Pieces of at most the budget: a column of a million-row record is several MB.
  const perPiece = CELLS_PER_PIECE;
  const pieces: Array<{ column: number; top: number; cells: string[] }> = [];
  for (const { column, cells } of columns) {
    for (let top = 0; top < cells.length; top += perPiece) {
      pieces.push({ column, top, cells: cells.slice(top, top + perPiece) });
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

/** The record sheet's column letters of a job's fields (for messages and specs). */
export function rowRecordColumns(jobId: string): string[] {
  const job = opened.get(documentKey())?.jobs.get(jobId);
  return job ? [...job.values()].map(({ column }) => columnName(column)) : [];
}
