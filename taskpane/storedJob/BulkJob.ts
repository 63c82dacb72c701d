import type { BulkResumeToken, RowStatusCounts } from "spellrun";

export type { KeptResult } from "./KeptResult.js";

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
