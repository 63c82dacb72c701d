import type { BulkResumeToken, RowStatusCounts } from "../../src";
import {
  decodeIndexBitmap,
  decodeIndexes,
  encodeIndexBitmap,
  encodeIndexes,
} from "./indexRanges.js";
import { deleteRowRecord, rowRecord, saveRowRecord } from "../sheet/rowRecordStore.js";
import type { KeptResult } from "../sheet/KeptResult.js";
import {
  KEPT_RESULTS_FIELD,
  keptResultsFromSetting,
  keptResultsRecordText,
  readKeptResultsRecord,
} from "../sheet/keptResultsRecord.js";
import {
  EXCEL_MAX_ROWS,
  rowRecordProblem,
  storedJobIds,
  storedJobProblem,
} from "./storedJobProblem.js";

export type { KeptResult } from "../sheet/KeptResult.js";

/** Name of the document setting that holds the bulk in progress (what does not change). */
export const BULK_JOB_SETTING = "spellrun.bulkJob";

/** Name of the document setting with the bulk's progress (token, rows written), saved per poll. */
export const BULK_PROGRESS_SETTING = "spellrun.bulkProgress";

/**
 * Name of the document setting listing the ids of the stored jobs (one per block): each job is
 * under `spellrun.bulkJob.<id>` and `spellrun.bulkProgress.<id>`. A job without an id (stored by
 * an earlier version) is under the bare names.
 */
export const BULK_JOB_IDS_SETTING = "spellrun.bulkJobs";

/** Prefix of the setting with a job's kept results (`spellrun.bulkKept.<id>`). */
export const BULK_KEPT_SETTING = "spellrun.bulkKept";

/**
 * Everything needed to pick a bulk up again after the task pane or the workbook was closed:
 * where its rows are, what each row's inputs were, where results go and how to re-attach to the
 * service's groups. Never the API key (the token holds spell and group ids only).
 *
 * ## Example
 * ```ts
 * const job: BulkJob = { version: 1, spellId: "summarize", sheet: "Sheet1", headerRow: 0,
 *   rows: [1, 2], inputColumns: [0], inputNames: ["text"], fingerprints: ["a", "b"],
 *   statusColumn: 1, outputNames: [], handled: [], startedAt: Date.now() };
 * ```
 */
export interface BulkJob {
  version: 1;
  /**
   * The job's id among the document's jobs (one per block; the block's name). Absent in jobs
   * stored by an earlier version, which are kept under the bare setting names.
   */
  id?: string;
  spellId: string;
  /** The sheet's name when the bulk started (for messages). */
  sheet: string;
  /** The sheet's id, by which its cells are found: a rename does not lose the bulk. */
  sheetId?: string;
  /** Absolute, zero-based row of the selection's header row (output headers go there). */
  headerRow: number;
  /**
   * `rows[i]`: the absolute sheet row of run `i` as last seen (updated when the block moved or
   * rows were sorted); -1 when its inputs are in no row any more.
   */
  rows: number[];
  /**
   * The workbook name over the block (see `trackedBlock`): writes find the block through it.
   * Absent in jobs stored before it existed (then rows are addressed where they were).
   */
  blockName?: string;
  /** Header text of each input column, in input order (inputs are found by it after column edits). */
  inputHeaders?: string[];
  /** Absolute columns of the inputs, in input order. */
  inputColumns: number[];
  inputNames: string[];
  /** `fingerprints[i]`: `rowFingerprint` of run `i`'s input cells when it was submitted. */
  fingerprints: string[];
  statusColumn: number;
  /** Output names in column order (status column + 1 onwards). */
  outputNames: string[];
  /**
   * Columns from the status column on that are the run's own (see `WriteTarget.ownedWidth`);
   * absent in jobs stored before it existed (then every output column is taken as the run's).
   */
  ownedWidth?: number;
  /**
   * Set when the service answered that it no longer knows the bulk's groups (expired): the job
   * can only be dismissed, or its unfinished rows run again.
   */
  expired?: boolean;
  /**
   * Set when the bulk is over but results whose rows were deleted are kept
   * (`loadKeptResults`): the job stays stored only so that the user can copy or forget them.
   */
  keptOnly?: boolean;
  /** The core's resume token, once the first group id is known. */
  token?: BulkResumeToken;
  /** Runs whose result, stale or cancelled mark is already in the sheet, in increasing order. */
  handled: number[];
  /** The handled runs by the status their run ended with (absent in jobs of earlier versions). */
  counts?: RowStatusCounts;
  /**
   * The bulk-job engine's windows, when they are not the pane's one window over every run (window
   * 0 of `rows.length` runs, its token in `token`): a program's job over several windows. An
   * empty list: the service refused the start, nothing runs.
   */
  windows?: JobWindow[];
  startedAt: number;
}

/**
 * One window of a job as the document keeps it: its place, runs, runs sent and resume token
 * (absent while the service has not named its group).
 *
 * ## Example
 * ```ts
 * const window: JobWindow = { window: 1, count: 500, token: { spellId: "x", groupIds: ["g"], chunkSizes: [500] } };
 * ```
 */
export interface JobWindow {
  window: number;
  count: number;
  sent?: number;
  token?: BulkResumeToken;
}

interface StoredJob extends Omit<
  BulkJob,
  | "rows"
  | "handled"
  | "token"
  | "outputNames"
  | "ownedWidth"
  | "fingerprints"
  | "counts"
  | "windows"
> {
  rows: string;
  /** Fingerprints as one string, 9 base64url characters each (jobs stored before: an array). */
  fingerprintsPacked?: string;
  fingerprints?: string[];
  /** Runs whose row is -1 (their `rows` entry is stored as 0). */
  lostRows?: string;
  /**
   * Set when the per-row fields (rows, fingerprints, lost rows, token, rows written) are in the
   * record sheet (`rowRecordStore`), not here: `rows` is then empty. Jobs with an id only.
   */
  rowRecord?: true;
  /** Runs of the job (with `rowRecord`, for messages without reading the record). */
  runs?: number;
}

interface StoredProgress {
  /** The runs written by status (see `BulkJob.counts`). */
  counts?: RowStatusCounts;
  /** The token without its `rows` (stored as `tokenRows`). */
  token?: BulkResumeToken;
  /** `token.rows` (a bulk with reuse: row → run sent, -1 remembered), each + 1, as `encodeIndexes`. */
  tokenRows?: string;
  outputNames: string[];
  ownedWidth?: number;
  handled: string;
}

/**
 * Stores the bulk in the document's settings and saves them, so it survives a reload. The rows,
 * fingerprints and mapping are written here once; `saveBulkProgress` updates the small part that
 * changes per poll.
 *
 * ## Example
 * ```ts
 * await saveBulkJob(job);
 * ```
 */
export async function saveBulkJob(job: BulkJob): Promise<void> {
  const {
    token: _token,
    outputNames: _names,
    ownedWidth: _owned,
    handled: _handled,
    // Progress: saved with the token (`progressRecord`, `setProgress`).
    counts: _counts,
    windows: _windows,
    ...fixed
  } = job;
  const lost = job.rows.flatMap((row, run) => (row < 0 ? [run] : []));
  const { fingerprints, ...rest } = fixed;
  const packed = packFingerprints(fingerprints);
  const stored: StoredJob = {
    ...rest,
    ...(packed !== undefined ? { fingerprintsPacked: packed } : { fingerprints }),
    rows: encodeIndexes(job.rows.map((row) => Math.max(0, row))),
    ...(lost.length > 0 ? { lostRows: encodeIndexes(lost) } : {}),
  };
  const settings = Office.context.document.settings;
  if (job.id !== undefined) {
    // The per-row part grows with the rows (~1.2 MB at 100,000 rows): it goes to the record
    // sheet first, and settings keep a few KB that point to it.
    const { rows, fingerprintsPacked, fingerprints: unpacked, lostRows, ...small } = stored;
    await saveRowRecord(job.id, {
      rows,
      lostRows: lostRows ?? "",
      fingerprints: fingerprintsPacked ?? "",
      fingerprintsJson: fingerprintsPacked === undefined ? JSON.stringify(unpacked ?? []) : "",
      ...progressRecord(job),
    });
    settings.set(jobKey(BULK_JOB_SETTING, job.id), {
      ...small,
      rows: "",
      rowRecord: true,
      runs: job.rows.length,
    } satisfies StoredJob);
    const ids = storedIds();
    if (!ids.includes(job.id)) settings.set(BULK_JOB_IDS_SETTING, [...ids, job.id]);
  } else settings.set(jobKey(BULK_JOB_SETTING, job.id), stored);
  setProgress(job);
  await saveSettings();
}

/** The per-row part of a job's progress, for the record sheet: token, its rows, rows written. */
function progressRecord(job: BulkJob): Record<string, string> {
  const { rows, ...token } = job.token ?? { rows: undefined };
  const windows = windowsText(job);
  return {
    token: job.token ? JSON.stringify(token) : "",
    tokenRows: rows ? encodeIndexes(rows.map((index) => index + 1)) : "",
    handled: encodeIndexBitmap(job.handled, job.rows.length),
    // Only for a job of several windows: the pane's own jobs add no field.
    ...(windows ? { windows } : {}),
  };
}

/**
 * The job's windows as the record keeps them: "" for the pane's one window over every run (its
 * token is in `token`), else JSON with window 0's token left out (it is in `token`).
 */
function windowsText(job: BulkJob): string {
  const windows = job.windows;
  if (!windows) return "";
  const only = windows[0];
  if (
    windows.length === 1 &&
    only.window === 0 &&
    only.count === job.rows.length &&
    only.sent === undefined
  ) {
    return "";
  }
  return JSON.stringify(
    windows.map(({ window, count, sent, token }) => [
      window,
      count,
      sent ?? null,
      window === 0 ? null : (token ?? null),
    ])
  );
}

/** The windows of `windowsText`; undefined for "" (the one window over every run). */
function parseWindows(text: string, token: BulkResumeToken | undefined): JobWindow[] | undefined {
  if (!text) return undefined;
  const list = JSON.parse(text) as [number, number, number | null, BulkResumeToken | null][];
  return list.map(([window, count, sent, windowToken]) => {
    const known = window === 0 ? token : (windowToken ?? undefined);
    return {
      window,
      count,
      ...(sent === null ? {} : { sent }),
      ...(known ? { token: known } : {}),
    };
  });
}

/**
 * Stores what changed since `saveBulkJob`: the resume token, output names and the runs already
 * in the sheet (`job.handled` in increasing order).
 *
 * ## Example
 * ```ts
 * await saveBulkProgress({ ...job, token: snapshot.resume });
 * ```
 */
export async function saveBulkProgress(job: BulkJob): Promise<void> {
  if (job.id !== undefined) await saveRowRecord(job.id, progressRecord(job));
  setProgress(job);
  await saveSettings();
}

function setProgress(job: BulkJob): void {
  if (job.id !== undefined) {
    // Token and rows written are in the record sheet (`progressRecord`).
    const progress: StoredProgress = {
      outputNames: job.outputNames,
      ownedWidth: job.ownedWidth,
      handled: "",
      ...(job.counts ? { counts: job.counts } : {}),
    };
    Office.context.document.settings.set(jobKey(BULK_PROGRESS_SETTING, job.id), progress);
    return;
  }
  const { rows, ...token } = job.token ?? { rows: undefined };
  const progress: StoredProgress = {
    token: job.token && (token as BulkResumeToken),
    ...(rows ? { tokenRows: encodeIndexes(rows.map((index) => index + 1)) } : {}),
    outputNames: job.outputNames,
    ownedWidth: job.ownedWidth,
    handled: encodeIndexes(job.handled),
  };
  Office.context.document.settings.set(jobKey(BULK_PROGRESS_SETTING, job.id), progress);
}

const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** Characters per packed fingerprint: 9 × 6 bits hold the 53-bit `rowFingerprint`. */
const PACKED_CHARS = 9;

/**
 * The fingerprints (base-36 numbers below 2^53, as `rowFingerprint` makes them) as one string of
 * 9 base64url characters each: 9 bytes a row instead of ~14 in a JSON array, which matters at
 * 100,000 rows. Undefined when one is not such a number (kept as an array then).
 */
function packFingerprints(fingerprints: readonly string[]): string | undefined {
  let packed = "";
  for (const fingerprint of fingerprints) {
    let n = parseInt(fingerprint, 36);
    if (!Number.isSafeInteger(n) || n < 0 || n.toString(36) !== fingerprint) return undefined;
    for (let i = 0; i < PACKED_CHARS; i++) {
      packed += DIGITS[n % 64];
      n = Math.floor(n / 64);
    }
  }
  return packed;
}

function unpackFingerprints(packed: string): string[] {
  if (packed.length % PACKED_CHARS !== 0) throw new Error("Damaged fingerprints");
  const fingerprints: string[] = [];
  for (let at = 0; at < packed.length; at += PACKED_CHARS) {
    let n = 0;
    for (let i = PACKED_CHARS - 1; i >= 0; i--) {
      const digit = DIGITS.indexOf(packed[at + i]);
      if (digit < 0) throw new Error("Damaged fingerprints");
      n = n * 64 + digit;
    }
    fingerprints.push(n.toString(36));
  }
  return fingerprints;
}

function jobKey(base: string, id: string | undefined): string {
  return id === undefined ? base : `${base}.${id}`;
}

function storedIds(): string[] {
  return storedJobIds(Office.context.document.settings.get(BULK_JOB_IDS_SETTING) as unknown);
}

/**
 * The stored jobs that may not be used (see `storedJobProblem`), with why: the pane reports
 * them and offers to forget them (`clearBulkJob(id)`).
 *
 * ## Example
 * ```ts
 * for (const { id, problem } of damagedBulkJobs()) report(`A stored bulk is damaged: ${problem}`);
 * ```
 */
export function damagedBulkJobs(): { id: string | undefined; problem: string }[] {
  const settings = Office.context.document.settings;
  return [undefined, ...storedIds()].flatMap((id) => {
    const stored = settings.get(jobKey(BULK_JOB_SETTING, id)) as unknown;
    if (stored === null || stored === undefined) return [];
    let problem = storedJobProblem(stored, settings.get(jobKey(BULK_PROGRESS_SETTING, id)));
    const record = id !== undefined && (stored as { rowRecord?: unknown }).rowRecord === true;
    if (problem === undefined && record) {
      const fields = rowRecord(id);
      const runs = (stored as { runs?: number }).runs ?? 0;
      problem = fields ? rowRecordProblem(fields, runs) : undefined;
    }
    return problem === undefined ? [] : [{ id, problem }];
  });
}

/**
 * Every job the document's settings hold (an earlier version's single job first), skipping any
 * that cannot be read.
 *
 * ## Example
 * ```ts
 * for (const job of loadBulkJobs()) offerResume(job);
 * ```
 */
export function loadBulkJobs(): BulkJob[] {
  return [undefined, ...storedIds()]
    .map((id) => loadJob(id))
    .filter((job): job is BulkJob => job !== undefined);
}

/**
 * The first job the document's settings hold, if any (and if readable); see `loadBulkJobs`.
 *
 * ## Example
 * ```ts
 * const job = loadBulkJob();
 * if (job?.token) offerResume(job);
 * ```
 */
export function loadBulkJob(): BulkJob | undefined {
  return loadBulkJobs()[0];
}

function loadJob(id: string | undefined): BulkJob | undefined {
  const settings = Office.context.document.settings;
  const stored = settings.get(jobKey(BULK_JOB_SETTING, id)) as StoredJob | null;
  const progress = (settings.get(jobKey(BULK_PROGRESS_SETTING, id)) as StoredProgress | null) ?? {
    outputNames: [],
    handled: "",
  };
  // Checked with bounds before anything is decoded: a crafted setting must not hang the pane.
  if (!stored) return undefined;
  if (storedJobProblem(stored, settings.get(jobKey(BULK_PROGRESS_SETTING, id))) !== undefined) {
    return undefined;
  }
  try {
    if (stored.rowRecord && id !== undefined) return fromRowRecord(id, stored, progress);
    const { lostRows, fingerprintsPacked, fingerprints, ...fixed } = stored;
    const rows = decodeIndexes(stored.rows);
    for (const run of decodeIndexes(lostRows ?? "")) rows[run] = -1;
    return {
      ...fixed,
      fingerprints:
        fingerprintsPacked !== undefined
          ? unpackFingerprints(fingerprintsPacked)
          : (fingerprints ?? []),
      rows,
      token:
        progress.token && progress.tokenRows !== undefined
          ? { ...progress.token, rows: decodeIndexes(progress.tokenRows).map((n) => n - 1) }
          : progress.token,
      outputNames: progress.outputNames ?? [],
      ownedWidth: progress.ownedWidth,
      handled: decodeIndexes(progress.handled ?? ""),
    };
  } catch {
    return undefined; // damaged by hand or by another version: nothing sensible to resume
  }
}

/** A job whose per-row part is in the record sheet; undefined when the record is missing. */
function fromRowRecord(
  id: string,
  stored: StoredJob,
  progress: StoredProgress
): BulkJob | undefined {
  const record = rowRecord(id);
  if (!record) return undefined; // the record sheet was deleted: nothing sensible to resume
  // The record sheet comes with the workbook too: bounds before anything is decoded.
  if (rowRecordProblem(record, stored.runs ?? 0) !== undefined) return undefined;
  const {
    rowRecord: _marker,
    runs: _runs,
    lostRows: _lost,
    fingerprintsPacked: _p,
    fingerprints: _f,
    ...fixed
  } = stored;
  const rows = decodeIndexes(record.rows ?? "");
  for (const run of decodeIndexes(record.lostRows ?? "")) rows[run] = -1;
  const token = record.token
    ? (JSON.parse(record.token) as Omit<BulkResumeToken, "rows">)
    : undefined;
  const restored =
    token && record.tokenRows
      ? { ...token, rows: decodeIndexes(record.tokenRows).map((n) => n - 1) }
      : token;
  return {
    ...fixed,
    fingerprints: record.fingerprints
      ? unpackFingerprints(record.fingerprints)
      : (JSON.parse(record.fingerprintsJson || "[]") as string[]),
    rows,
    token: restored,
    outputNames: progress.outputNames ?? [],
    ownedWidth: progress.ownedWidth,
    handled: decodeIndexBitmap(record.handled ?? ""),
    ...(progress.counts ? { counts: { ...progress.counts } } : {}),
    ...(record.windows ? { windows: parseWindows(record.windows, restored) } : {}),
  };
}

/**
 * Forgets one stored job (it finished, was cancelled, or the user dismissed it); every other job
 * stays. Without an id: the job an earlier version stored under the bare names.
 *
 * ## Example
 * ```ts
 * await clearBulkJob(job.id);
 * ```
 */
export async function clearBulkJob(id?: string): Promise<void> {
  const settings = Office.context.document.settings;
  settings.remove(jobKey(BULK_JOB_SETTING, id));
  settings.remove(jobKey(BULK_PROGRESS_SETTING, id));
  settings.remove(jobKey(BULK_KEPT_SETTING, id));
  if (id !== undefined) {
    await deleteRowRecord(id);
    const ids = storedIds().filter((other) => other !== id);
    if (ids.length > 0) settings.set(BULK_JOB_IDS_SETTING, ids);
    else settings.remove(BULK_JOB_IDS_SETTING);
  }
  await saveSettings();
}

/**
 * Stores a job's kept results (see `KeptResult`): written only when one more is kept, which
 * happens only after a row was deleted mid-run. A job with an id keeps them in its per-row record
 * (`rowRecordStore`, field `kept`, one line per result, so one more rewrites the field's last
 * cell only): 2,000 deleted rows of 1 KB outputs are 2 MB, and Office refuses a settings save of
 * about 1 MB. Its settings keep nothing of them; what the previous version kept there is moved.
 * A job without an id (an earlier version's) keeps them in the settings as before.
 *
 * ## Example
 * ```ts
 * await saveKeptResults(job.id, [{ status: "success", outputs: { summary: "…" } }]);
 * ```
 */
export async function saveKeptResults(
  id: string | undefined,
  kept: readonly KeptResult[]
): Promise<void> {
  const settings = Office.context.document.settings;
  if (id === undefined) {
    settings.set(BULK_KEPT_SETTING, kept);
    await saveSettings();
    return;
  }
  await saveRowRecord(id, { [KEPT_RESULTS_FIELD]: keptResultsRecordText(kept) });
  const previous = jobKey(BULK_KEPT_SETTING, id);
  // Removed only once the record holds them: a failed write leaves them where they were.
  if (settings.get(previous) !== null && settings.get(previous) !== undefined) {
    settings.remove(previous);
    await saveSettings();
  }
}

/**
 * A job's kept results (empty when none, or when they fail the checks of
 * `readKeptResultsRecord`): from its per-row record as `openRowRecords` read it or the pane last
 * saved it (no sync), or, for a job stored by the previous version, from the setting
 * `spellrun.bulkKept.<id>`.
 *
 * ## Example
 * ```ts
 * const kept = loadKeptResults(job.id);
 * ```
 */
export function loadKeptResults(id: string | undefined): KeptResult[] {
  const runs = keptRunsBound(id);
  const text = id === undefined ? undefined : rowRecord(id)?.[KEPT_RESULTS_FIELD];
  if (text !== undefined) {
    const read = readKeptResultsRecord(text, runs);
    return "kept" in read ? read.kept : [];
  }
  const setting = Office.context.document.settings.get(jobKey(BULK_KEPT_SETTING, id)) as unknown;
  return keptResultsFromSetting(setting, runs);
}

/** The most results a stored job can have kept: its run count when its settings say it. */
function keptRunsBound(id: string | undefined): number {
  const stored = Office.context.document.settings.get(jobKey(BULK_JOB_SETTING, id)) as unknown;
  const runs = (stored as { runs?: unknown } | null)?.runs;
  return Number.isSafeInteger(runs) && (runs as number) >= 0 && (runs as number) <= EXCEL_MAX_ROWS
    ? (runs as number)
    : EXCEL_MAX_ROWS;
}

/**
 * Saves the document's settings (`Office.context.document.settings.saveAsync`) as a promise that
 * rejects with a sentence when Office refuses (over its size limit, a read-only document).
 *
 * ## Example
 * ```ts
 * Office.context.document.settings.set("spellrun.bulkCheckpoint.job-1", checkpoint);
 * await saveSettings();
 * ```
 * @return settles when Office answered
 */
export function saveSettings(): Promise<void> {
  return new Promise((resolve, reject) => {
    Office.context.document.settings.saveAsync((result) => {
      if (result.status === Office.AsyncResultStatus.Failed) {
        reject(new Error(`Could not save the document's settings: ${result.error?.message}`));
      } else {
        resolve();
      }
    });
  });
}
