import { KEPT_RESULTS_FIELD, keptResultsRecordProblem } from "./keptResultsRecord.js";

/** Rows of an Excel worksheet (Excel specifications and limits): no job has more runs. */
export const EXCEL_MAX_ROWS = 1_048_576;
/** Columns of an Excel worksheet (XFD). */
export const EXCEL_MAX_COLUMNS = 16_384;
/** Characters per packed fingerprint (see `fingerprintCodec`). */
const PACKED_CHARS = 9;

/**
 * Why a stored job (the document settings `spellrun.bulkJob…` and `spellrun.bulkProgress…`) may
 * not be used, or `undefined` when it may. A workbook is a file from anywhere: its settings are
 * checked field by field, with bounds, before anything is decoded, so that a crafted setting (row
 * ranges claiming 10^10 rows, an index far outside the sheet) is refused in microseconds instead
 * of expanding into an array that hangs the pane and, with it, the shared runtime where every
 * `SPELL` cell runs.
 *
 * Bounds: at most `EXCEL_MAX_ROWS` runs, rows and header inside the sheet, columns inside the
 * sheet, every index list within its job, fingerprints one per run, token chunks adding up to at
 * most the runs.
 *
 * ## Example
 * ```ts
 * storedJobProblem({ version: 1, rows: "0-9999999999", ... }, undefined);
 * // "it claims 10000000000 rows, more than a worksheet holds"
 * ```
 *
 * @param stored The job setting as read.
 * @param progress The progress setting as read (`null`/`undefined` when absent).
 * @return The problem, in words for the user, or `undefined`.
 */
export function storedJobProblem(stored: unknown, progress: unknown): string | undefined {
  if (!isRecord(stored)) return "it is not a job record";
  if (stored.version !== 1) return `it has format version ${String(stored.version)}`;
  const job = stored;
  if (!isText(job.spellId) || !isText(job.sheet)) return "its spell or sheet is not text";
  if (!isIndex(job.headerRow, EXCEL_MAX_ROWS)) return "its header row is outside a worksheet";
  if (!isIndex(job.statusColumn, EXCEL_MAX_COLUMNS))
    return "its status column is outside a worksheet";
  if (typeof job.startedAt !== "number" || !Number.isFinite(job.startedAt)) {
    return "its start time is not a time";
  }
  if (
    !isList(job.inputColumns, EXCEL_MAX_COLUMNS, (column) => isIndex(column, EXCEL_MAX_COLUMNS))
  ) {
    return "its input columns are outside a worksheet";
  }
  if (!isList(job.inputNames, EXCEL_MAX_COLUMNS, isText)) return "its input names are not text";
  if (job.inputHeaders !== undefined && !isList(job.inputHeaders, EXCEL_MAX_COLUMNS, isText)) {
    return "its input headers are not text";
  }
  for (const name of ["id", "sheetId", "blockName"] as const) {
    if (job[name] !== undefined && !isText(job[name])) return `its ${name} is not text`;
  }
  // Per-row fields in the record sheet (see `rowRecordProblem`): only their count is here.
  if (job.rowRecord === true) {
    if (!isIndex(job.runs, EXCEL_MAX_ROWS + 1)) return "its row count is outside a worksheet";
    return progress === null || progress === undefined
      ? undefined
      : storedProgressProblem(progress, job.runs as number);
  }
  if (typeof job.rows !== "string") return "its rows are not an index list";
  const claimed = countIndexes(job.rows, Number.MAX_SAFE_INTEGER);
  if (claimed !== undefined && claimed > EXCEL_MAX_ROWS) {
    return `it claims ${claimed} rows, more than a worksheet holds`;
  }
  const runs = countIndexes(job.rows, EXCEL_MAX_ROWS - 1);
  if (runs === undefined) return "its rows are not row numbers of a worksheet";
  if (job.lostRows !== undefined && !isIndexList(job.lostRows, runs)) {
    return "its lost rows are not runs of the job";
  }
  const fingerprints =
    typeof job.fingerprintsPacked === "string"
      ? job.fingerprintsPacked.length / PACKED_CHARS
      : Array.isArray(job.fingerprints) && job.fingerprints.every(isText)
        ? job.fingerprints.length
        : undefined;
  if (fingerprints !== runs) return "it does not hold one fingerprint per row";
  return progress === null || progress === undefined
    ? undefined
    : storedProgressProblem(progress, runs);
}

/** The progress setting: handled runs, output names, the resume token, all within the job. */
function storedProgressProblem(progress: unknown, runs: number): string | undefined {
  if (!isRecord(progress)) return "its progress is not a record";
  if (progress.handled !== undefined && !isIndexList(progress.handled, runs)) {
    return "its finished rows are not runs of the job";
  }
  if (
    progress.outputNames !== undefined &&
    !isList(progress.outputNames, EXCEL_MAX_COLUMNS, isText)
  ) {
    return "its output names are not text";
  }
  if (progress.ownedWidth !== undefined && !isIndex(progress.ownedWidth, EXCEL_MAX_COLUMNS + 1)) {
    return "its output width is outside a worksheet";
  }
  if (progress.counts !== undefined && !areCounts(progress.counts, runs)) {
    return "its row counts are damaged";
  }
  const token = progress.token;
  if (token === undefined || token === null) return undefined;
  if (!isRecord(token) || !isText(token.spellId)) return "its resume token is damaged";
  if (!isList(token.groupIds, runs, isText)) return "its bulk run ids are damaged";
  if (!isList(token.chunkSizes, runs, (size) => isIndex(size, runs + 1))) {
    return "its bulk run sizes are damaged";
  }
  const sent = (token.chunkSizes as number[]).reduce((sum, size) => sum + size, 0);
  if (sent > runs) return "its bulk runs claim more rows than the job has";
  // tokenRows: per row, the run sent + 1 (0 for a remembered row): one entry per row.
  if (progress.tokenRows !== undefined) {
    if (typeof progress.tokenRows !== "string") return "its row map is damaged";
    if (countIndexes(progress.tokenRows, sent) !== runs) return "its row map is damaged";
  }
  return undefined;
}

/**
 * How many indexes an `encodeIndexes` text holds, counted without expanding the ranges; each
 * must be a whole number from 0 to `max`. `undefined` when the text is not such a list.
 *
 * ## Example
 * ```ts
 * countIndexes("0-9999999999", 1_048_575); // undefined (beyond a worksheet): nothing expanded
 * countIndexes("1-3,7", 10); // 4
 * ```
 *
 * @param text The index list.
 * @param max The largest index allowed.
 * @return The count, or `undefined`.
 */
export function countIndexes(text: string, max: number): number | undefined {
  let count = 0;
  for (const part of text.split(",")) {
    if (part === "") continue;
    const match = /^(\d{1,16})(?:-(\d{1,16}))?$/.exec(part);
    if (!match) return undefined;
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (to < from || to > max) return undefined;
    count += to - from + 1;
  }
  return count;
}

function isIndexList(value: unknown, runs: number): boolean {
  if (typeof value !== "string") return false;
  const count = countIndexes(value, runs - 1);
  return count !== undefined && count <= runs;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === "string";
}

function isIndex(value: unknown, limit: number): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) < limit;
}

function isList(value: unknown, maxLength: number, item: (value: unknown) => boolean): boolean {
  return Array.isArray(value) && value.length <= maxLength && value.every(item);
}

/** Longest job id kept: ids are block names, which Excel limits to 255 characters. */
const MAX_ID_LENGTH = 255;
/** Most stored jobs read: one per block, far more than any workbook runs at once. */
const MAX_JOBS = 100;

/**
 * The ids of the stored jobs from the `spellrun.bulkJobs` setting: text of a block name's length
 * only, at most 100 of them, whatever the setting holds.
 *
 * ## Example
 * ```ts
 * storedJobIds(["SpellRun_1", 7, "x".repeat(10_000)]); // ["SpellRun_1"]
 * ```
 *
 * @param value The setting as read.
 * @return The ids.
 */
export function storedJobIds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .slice(0, MAX_JOBS * 10)
    .filter((id): id is string => typeof id === "string" && id !== "" && id.length <= MAX_ID_LENGTH)
    .slice(0, MAX_JOBS);
}

/**
 * Why a job's per-row record (the cells of the record sheet, see `rowRecordStore`) may not be
 * used, or `undefined`: the same bounds as `storedJobProblem`, since the sheet comes with the
 * workbook too; its kept results as `readKeptResultsRecord` checks them.
 *
 * ## Example
 * ```ts
 * rowRecordProblem({ rows: "0-9999999999" }, 3); // "its rows are not row numbers of a worksheet"
 * ```
 *
 * @param record The record's fields as read.
 * @param runs The job's run count (from its settings record, checked there).
 * @return The problem, or `undefined`.
 */
export function rowRecordProblem(record: Record<string, string>, runs: number): string | undefined {
  if (countIndexes(record.rows ?? "", EXCEL_MAX_ROWS - 1) !== runs) {
    return "its rows are not row numbers of a worksheet, one per run";
  }
  if (!isIndexList(record.lostRows ?? "", runs)) return "its lost rows are not runs of the job";
  if (record.fingerprints) {
    if (record.fingerprints.length !== runs * PACKED_CHARS) {
      return "it does not hold one fingerprint per row";
    }
  } else {
    try {
      const list: unknown = JSON.parse(record.fingerprintsJson || "[]");
      if (!isList(list, runs, isText) || (list as string[]).length !== runs) {
        return "it does not hold one fingerprint per row";
      }
    } catch {
      return "its fingerprints are damaged";
    }
  }
  if (record.tokenRows && countIndexes(record.tokenRows, runs) !== runs) {
    return "its row map is damaged";
  }
  if (record.windows && !areWindows(record.windows, runs)) return "its windows are damaged";
  if (record.token) {
    try {
      const token: unknown = JSON.parse(record.token);
      if (!isRecord(token) || !isText(token.spellId) || !isList(token.groupIds, runs, isText)) {
        return "its resume token is damaged";
      }
      if (!isList(token.chunkSizes, runs, (size) => isIndex(size, runs + 1))) {
        return "its bulk run sizes are damaged";
      }
    } catch {
      return "its resume token is damaged";
    }
  }
  const kept = record[KEPT_RESULTS_FIELD];
  return kept ? keptResultsRecordProblem(kept, runs) : undefined;
}

/** Rows per status: the statuses a row can end with, each a count within the job. */
function areCounts(value: unknown, runs: number): boolean {
  if (!isRecord(value)) return false;
  const statuses = ["success", "failure", "error", "cancelled", "unknown", "expired"];
  return Object.entries(value).every(
    ([status, count]) => statuses.includes(status) && isIndex(count, runs + 1)
  );
}

/**
 * A job's windows as the record keeps them (JSON of `[window, count, sent, token]`), checked with
 * bounds before the pane uses them: at most one window per run, counts within the job.
 */
function areWindows(text: string, runs: number): boolean {
  if (text.length > 64 * (runs + 1) + 1_000_000) return false;
  try {
    const list: unknown = JSON.parse(text);
    return isList(list, runs + 1, (entry) => {
      if (!Array.isArray(entry) || entry.length !== 4) return false;
      const [window, count, sent, token] = entry as unknown[];
      if (!isIndex(window, runs + 1) || !isIndex(count, runs + 1)) return false;
      if (sent !== null && !isIndex(sent, runs + 1)) return false;
      if (token === null) return true;
      return (
        isRecord(token) &&
        isText(token.spellId) &&
        isList(token.groupIds, runs, isText) &&
        isList(token.chunkSizes, runs, (size) => isIndex(size, runs + 1))
      );
    });
  } catch {
    return false;
  }
}
