import type { BulkResumeToken } from "../types.js";
import type { RowStatusCounts } from "./RowResult.js";

/**
 * A window about to be sent: rows `firstRow … firstRow + count - 1`, of which `sent` go out in one
 * bulkStart (rows with a known result are not sent; `sent` is absent when every row is).
 *
 * ## Example
 * ```ts
 * const intent: WindowIntent = { window: 3, firstRow: 1500, count: 500 };
 * ```
 */
export interface WindowIntent {
  window: number;
  firstRow: number;
  count: number;
  sent?: number;
  /**
   * The window's rows as they were sent (see `windowFingerprint`: 8 hex digits per row). A resume
   * checks the rows it is given against it and refuses others (`RowsChangedError`). Absent in
   * checkpoints of earlier versions (then only the window's size is checked).
   */
  fingerprint?: string;
}

/**
 * What a checkpoint knows of a window when a job is resumed: its size, the rows sent (absent:
 * all of them), and its group id unless the job stopped between the intent and bulkStart's answer.
 *
 * ## Example
 * ```ts
 * const known: KnownWindow = { count: 500, groupId: "bulk_3_ab12" };
 * ```
 */
export interface KnownWindow {
  count: number;
  sent?: number;
  /** The window's fingerprint recorded with its intent (see `WindowIntent.fingerprint`). */
  fingerprint?: string;
  groupId?: string;
  /**
   * The core's resume token of the window (`snapshot.resume`), when the store keeps it: needed
   * when the window spans several groups, or when its bulk ran with `reuse` (rows sharing runs).
   * Without it the window is re-attached as one group of `sent` runs.
   */
  token?: BulkResumeToken;
}

/**
 * A written mark: the first `rows` rows of the job are written, with these statuses.
 *
 * ## Example
 * ```ts
 * const mark: WrittenMark = { rows: 1000, counts: { success: 1000 } };
 * ```
 */
export interface WrittenMark {
  rows: number;
  counts: RowStatusCounts;
  /**
   * With `writeOrder: "finished"`: rows written past the first `rows` (0-based, ascending), as
   * rows reach the writer when they finish. Absent or empty in input order.
   */
  alsoWritten?: readonly number[];
}

/**
 * How a run of a job ended.
 *
 * - `complete`: every row is written with a known end (a result, `cancelled` by an earlier cancel,
 *   or `expired`): none is `unknown`.
 * - `incomplete`: every row is written, but some are `unknown` (their bulkStart may have reached
 *   the service without an answer recorded, e.g. a kill during a window's start): run them again
 *   with `retryRows` and its `rerunUnknown` opt-in, at the risk of paying for them twice.
 * - `interrupted`: cancelled by the user; finished rows written, the rest marked cancelled.
 * - `input-error`: the rows could not be read.
 * - `service-error`: the service failed (see the run's `failure` for what that means for money).
 * - `write-error`: the results could not be written; the runs were not cancelled.
 *
 * ## Example
 * ```ts
 * const outcome: JobOutcome = "interrupted";
 * ```
 */
export type JobOutcome =
  "complete" | "incomplete" | "interrupted" | "input-error" | "service-error" | "write-error";

/**
 * What a checkpoint store hands back to resume a job.
 *
 * ## Example
 * ```ts
 * const checkpoint: Checkpoint = { writtenRows: 0, counts: {}, windows: new Map() };
 * ```
 */
export interface Checkpoint {
  writtenRows: number;
  counts: RowStatusCounts;
  /** Rows written past the first `writtenRows` (see `WrittenMark.alsoWritten`). */
  alsoWritten?: readonly number[];
  /** Windows sent (intent recorded and not refused), with their group ids when known. */
  windows: Map<number, KnownWindow>;
  /**
   * Windows whose start the service refused (nothing started; a resume sends them): kept only to
   * check the rows of a resume against their fingerprints.
   */
  refused?: Map<number, KnownWindow>;
  /** The last end recorded; absent when the job stopped without one (killed). */
  outcome?: JobOutcome;
}

/**
 * A worker's claim on a job (see `CheckpointStore.acquireLease`).
 *
 * ## Example
 * ```ts
 * await store.acquireLease?.({ owner: "worker-7", ttlMs: 30_000 });
 * ```
 */
export interface JobLease {
  /** Who holds it: unique per worker (a host name and process id, a random id). */
  owner: string;
  /** How long it lasts from now unless renewed. */
  ttlMs: number;
}

/**
 * Where a bulk job records what it is doing, so that a crash loses no paid run. The engine calls
 * it in this order for a window: `recordIntent` (awaited before the bulkStart can leave),
 * `recordGroup` (as soon as the service names the group), `recordWritten` (throttled), and once
 * per run `recordEnd` (after a last `recordWritten` of the rows written since the last one). `recordRefused` says the service surely started nothing for a window.
 *
 * Adapters: `MemoryCheckpointStore` (specs, programs), the command line's journal file, the task
 * pane's document.
 *
 * ## Example
 * ```ts
 * const store: CheckpointStore = new MemoryCheckpointStore();
 * await store.recordIntent({ window: 0, firstRow: 0, count: 500, sent: 500 });
 * ```
 */
export interface CheckpointStore {
  /**
   * True for a store that saves its whole state with every record (the task pane's document
   * settings: Office saves them all at once). The engine then counts any record as a written
   * mark for its throttle: a mark waits `writtenMarkEveryMs` after the store's last save, so two
   * full saves do not follow each other for a few rows.
   */
  readonly savesAllAtOnce?: boolean;
  /**
   * Takes or renews the job's lease for `lease.owner` for `lease.ttlMs` from now (by the store's
   * clock), so that two workers cannot run one job: throws `LeaseHeldError` while another owner
   * holds an unexpired lease. The engine calls it before it reads the checkpoint or sends
   * anything, then every `ttlMs / 3` while it runs (a renewal that fails stops the job, nothing
   * cancelled), and `releaseLease` at the end. Optional: a store without it is for one worker
   * (the command line's journal, the task pane's document). `MemoryCheckpointStore` and
   * `FileCheckpointStore` (`spellrun/node`) have it; docs/library.md has a recipe for a database.
   */
  acquireLease?(lease: JobLease): void | Promise<void>;
  /** Gives the lease up if `owner` holds it (another owner's lease is left alone). */
  releaseLease?(owner: string): void | Promise<void>;
  /** Loads what was recorded, for a resume; undefined when nothing was. */
  load(): Checkpoint | undefined | Promise<Checkpoint | undefined>;
  recordIntent(intent: WindowIntent): void | Promise<void>;
  /**
   * The window's group is known. Called again for the same window when its bulk spans several
   * groups and another one is named; `token` is the core's resume token so far.
   *
   * Also the intent of each chunk of a window sent as several bulkStarts, before the chunk's
   * bulkStart can leave: `token.mayHaveSent` counts the chunks that may have been sent, and
   * `groupId` is `""` while no chunk has a group yet. Keep the last token recorded for the
   * window: a resume sends again the chunks after `mayHaveSent`, surely never sent.
   */
  recordGroup(window: number, groupId: string, token?: BulkResumeToken): void | Promise<void>;
  recordRefused(window: number): void | Promise<void>;
  recordWritten(mark: WrittenMark): void | Promise<void>;
  /**
   * The run ended. `lastMark` (stores that `savesAllAtOnce` only): the rows written since the
   * last `recordWritten`, handed here instead of a mark of their own, so that the store saves
   * both at once, or nothing when it forgets a finished job.
   */
  recordEnd(outcome: JobOutcome, rows: number, lastMark?: WrittenMark): void | Promise<void>;
}
