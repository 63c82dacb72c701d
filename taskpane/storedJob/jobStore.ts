import type { BulkResumeToken } from "spellrun";
import { decodeIndexBitmap, decodeIndexes, encodeIndexes } from "./indexRanges.js";
import { deleteRowRecord, rowRecord, saveRowRecord } from "./rowRecordStore.js";
import { rowRecordProblem, storedJobProblem } from "./storedJobProblem.js";
import type { BulkJob } from "./BulkJob.js";
import { packFingerprints, unpackFingerprints } from "./fingerprintCodec.js";
import {
  BULK_JOB_IDS_SETTING,
  BULK_JOB_SETTING,
  BULK_KEPT_SETTING,
  BULK_PROGRESS_SETTING,
  jobKey,
  saveSettings,
  storedIds,
} from "./jobSettings.js";
import {
  parseWindows,
  progressRecord,
  type StoredJob,
  type StoredProgress,
} from "./storedJobFormat.js";

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
