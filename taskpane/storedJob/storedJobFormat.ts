import type { BulkResumeToken, RowStatusCounts } from "spellrun";
import type { BulkJob, JobWindow } from "./BulkJob.js";
import { encodeIndexBitmap, encodeIndexes } from "./indexRanges.js";

/** A job as the document settings hold it (the per-row fields packed or in the record sheet). */
export interface StoredJob extends Omit<
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

/** A job's progress as the document settings hold it. */
export interface StoredProgress {
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

/** The per-row part of a job's progress, for the record sheet: token, its rows, rows written. */
export function progressRecord(job: BulkJob): Record<string, string> {
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
export function windowsText(job: BulkJob): string {
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
export function parseWindows(
  text: string,
  token: BulkResumeToken | undefined
): JobWindow[] | undefined {
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
