import type { BulkResumeToken } from "../src/index.js";
import { decodeIndexes, encodeIndexes } from "./indexRanges.js";

/** Name of the document setting that holds the bulk in progress. */
export const BULK_JOB_SETTING = "spellrun.bulkJob";

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
  spellId: string;
  sheet: string;
  /** Absolute, zero-based row of the selection's header row (output headers go there). */
  headerRow: number;
  /** `rows[i]`: the absolute sheet row of run `i`. */
  rows: number[];
  /** Absolute columns of the inputs, in input order. */
  inputColumns: number[];
  inputNames: string[];
  /** `fingerprints[i]`: `rowFingerprint` of run `i`'s input cells when it was submitted. */
  fingerprints: string[];
  statusColumn: number;
  /** Output names in column order (status column + 1 onwards). */
  outputNames: string[];
  /** The core's resume token, once the first group id is known. */
  token?: BulkResumeToken;
  /** Runs whose result, stale or cancelled mark is already in the sheet. */
  handled: number[];
  startedAt: number;
}

interface StoredJob extends Omit<BulkJob, "rows" | "handled"> {
  rows: string;
  handled: string;
}

/**
 * Stores the bulk in the document's settings and saves them, so it survives a reload.
 *
 * ## Example
 * ```ts
 * await saveBulkJob({ ...job, token: snapshot.resume });
 * ```
 */
export async function saveBulkJob(job: BulkJob): Promise<void> {
  const stored: StoredJob = {
    ...job,
    rows: encodeIndexes(job.rows),
    handled: encodeIndexes([...job.handled].sort((a, b) => a - b)),
  };
  Office.context.document.settings.set(BULK_JOB_SETTING, stored);
  await saveSettings();
}

/**
 * The bulk the document's settings hold, if any (and if readable).
 *
 * ## Example
 * ```ts
 * const job = loadBulkJob();
 * if (job?.token) offerResume(job);
 * ```
 */
export function loadBulkJob(): BulkJob | undefined {
  const stored = Office.context.document.settings.get(BULK_JOB_SETTING) as StoredJob | null;
  if (!stored || stored.version !== 1) return undefined;
  try {
    return { ...stored, rows: decodeIndexes(stored.rows), handled: decodeIndexes(stored.handled) };
  } catch {
    return undefined; // damaged by hand or by another version: nothing sensible to resume
  }
}

/**
 * Forgets the stored bulk (it finished, or was cancelled).
 *
 * ## Example
 * ```ts
 * await clearBulkJob();
 * ```
 */
export async function clearBulkJob(): Promise<void> {
  Office.context.document.settings.remove(BULK_JOB_SETTING);
  await saveSettings();
}

function saveSettings(): Promise<void> {
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
