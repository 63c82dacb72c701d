import type { Subscription } from "rxjs";
import {
  TERMINAL_STATES,
  type BulkResumeToken,
  type BulkRunEntry,
  type BulkSnapshot,
} from "../types.js";
import type { RowResult } from "./RowResult.js";
import type { WrittenRows } from "./WrittenRows.js";

/**
 * One window of a bulk job: `rows` from `firstRow`, one bulk run, and where each row stands.
 *
 * ## Example
 * ```ts
 * const window = newJobWindow(0, 0, rows, rows.map(() => undefined), new WrittenRows());
 * ```
 * @internal
 */
export interface JobWindow<Row> {
  index: number;
  firstRow: number;
  rows: Row[];
  /** Rows sent in the bulk (those without a known result), by their place in `rows`. */
  sentRows: number[];
  /** Result of every row; undefined while unknown. Set once (a finished run does not change). */
  results: (RowResult | undefined)[];
  /** Rows with a result. */
  known: number;
  /** Rows given a result since the last flush (`writeOrder: "finished"` hands these over). */
  fresh: number[];
  /** Rows `0 … written - 1` are handed to the writer. */
  written: number;
  /** With `writeOrder: "finished"`: rows past `written` already handed to the writer. */
  handed: Set<number>;
  groupId?: string;
  /** The core's resume token of the window's bulk, once it names a group. */
  token?: BulkResumeToken;
  /** Resumed with a token that names fewer groups than chunks: the first run of those chunks. */
  unnamedFrom?: number;
  /**
   * The chunks whose bulkStart may have left (`BulkResumeToken.mayHaveSent`), once the bulk's
   * chunk intent hook was called: the groups recorded later say so too.
   */
  mayHaveSent?: number;
  /**
   * Resumed with chunks that may have been sent before: a failure of the chunks sent now is
   * never "nothing started" for the whole window (a resume must not send it all again).
   */
  partlySent?: boolean;
  subscription?: Subscription;
  /** Set when the bulk's `beforeStart` gate refused: nothing was sent for the window. */
  startRefused?: boolean;
  /** Set once the window's bulk completed, failed or was cancelled. */
  settled: boolean;
}

/**
 * A window read from the rows: rows with a known result are not sent (and are handed over with
 * the first flush); rows already written (before a resume, or out of order) are not handed again.
 *
 * ## Example
 * ```ts
 * const window = newJobWindow(2, 1000, rows, results, written);
 * ```
 * @param index the window's number
 * @param firstRow its first row in the job
 * @param rows its rows
 * @param results each row's known result (a retry's kept rows), or undefined
 * @param written the rows of the job written so far
 * @return the window
 * @internal
 */
export function newJobWindow<Row>(
  index: number,
  firstRow: number,
  rows: Row[],
  results: (RowResult | undefined)[],
  written: WrittenRows
): JobWindow<Row> {
  const sentRows: number[] = [];
  results.forEach((result, place) => {
    if (result === undefined) sentRows.push(place);
  });
  // Rows written before this window was read (before a resume, or out of order since: a row
  // written past the first gap moves the written prefix past rows of windows not read yet) are
  // not handed to the writer again.
  const handed = new Set<number>();
  for (const row of written.after) {
    if (row >= firstRow && row < firstRow + rows.length) handed.add(row - firstRow);
  }
  const window: JobWindow<Row> = {
    index,
    firstRow,
    rows,
    sentRows,
    results,
    known: rows.length - sentRows.length,
    // Rows with a known result are handed over with the first flush.
    fresh: results.flatMap((result, place) => (result === undefined ? [] : [place])),
    written: Math.min(rows.length, Math.max(0, written.prefix - firstRow)),
    handed,
    settled: false,
  };
  advance(window);
  return window;
}

/**
 * Gives a row its result (once).
 *
 * ## Example
 * ```ts
 * setResult(window, 0, { status: "success", outputs: {} });
 * ```
 * @param window the window
 * @param place the row's place in it
 * @param result its result
 * @internal
 */
export function setResult<Row>(window: JobWindow<Row>, place: number, result: RowResult): void {
  if (window.results[place] === undefined) window.known++;
  window.results[place] = result;
  window.fresh.push(place);
}

/**
 * Moves a window's `written` past the rows handed out of order.
 *
 * ## Example
 * ```ts
 * advance(window);
 * ```
 * @param window the window
 * @internal
 */
export function advance<Row>(window: JobWindow<Row>): void {
  while (window.handed.delete(window.written)) window.written++;
}

/**
 * The first run of the chunks a token names no group for; undefined when it names all.
 *
 * ## Example
 * ```ts
 * unnamedRunsFrom({ spellId: "s", groupIds: ["g0"], chunkSizes: [2, 2] }); // 2
 * ```
 * @param token the window's resume token
 * @return the first run without a recorded group, or undefined
 * @internal
 */
export function unnamedRunsFrom(token: BulkResumeToken): number | undefined {
  if (token.groupIds.length >= token.chunkSizes.length) return undefined;
  return token.chunkSizes.slice(0, token.groupIds.length).reduce((sum, size) => sum + size, 0);
}

/**
 * Whether a run of a bulk snapshot has finished.
 *
 * ## Example
 * ```ts
 * isFinished({ state: "success", outputs: {} }); // true
 * ```
 * @param run the run
 * @return whether it finished
 * @internal
 */
export function isFinished(
  run: BulkRunEntry
): run is BulkRunEntry & { state: "success" | "failure" | "error" } {
  return (TERMINAL_STATES as readonly string[]).includes(run.state);
}

/**
 * A row stopped by a cancel before it finished.
 * @internal
 */
export const CANCELLED: RowResult = Object.freeze({
  status: "cancelled",
  outputs: Object.freeze({ error: "Cancelled before it finished" }),
}) as RowResult;

/**
 * A row whose bulkStart may have reached the service without an answer recorded.
 * @internal
 */
export const NOT_RECORDED: RowResult = Object.freeze({
  status: "unknown",
  outputs: Object.freeze({
    error:
      "Its bulk run may have been started (no answer was recorded): not sent again, as that may pay for it twice",
  }),
}) as RowResult;

/**
 * Writes the rows of a window whose group expired at the service `expired` (their results are
 * gone with it); rows with a result keep it.
 *
 * ## Example
 * ```ts
 * expireRows(window);
 * ```
 * @param window the window
 * @internal
 */
export function expireRows<Row>(window: JobWindow<Row>): void {
  const reason = {
    error: `Its bulk run ${window.groupId ?? ""} expired at the service with its results: run the row again`,
  };
  for (const place of window.sentRows) {
    if (window.results[place] === undefined) {
      setResult(window, place, { status: "expired", outputs: reason });
    }
  }
}

/**
 * The window's resume token when a snapshot names a group the window had not recorded yet (its
 * first, or one more of a bulk spanning several groups); undefined when it names none new.
 *
 * ## Example
 * ```ts
 * const token = newGroupToken(window, snapshot, "summarize");
 * if (token) store.recordGroup(window.index, token.groupIds[0], token);
 * ```
 * @param window the window
 * @param snapshot a snapshot of its bulk
 * @param spellId the job's spell
 * @return the token to record, or undefined
 * @internal
 */
export function newGroupToken<Row>(
  window: JobWindow<Row>,
  snapshot: BulkSnapshot,
  spellId: string
): BulkResumeToken | undefined {
  const groupIds = snapshot.groupIds ?? [];
  const groupId = groupIds[0];
  if (groupId === undefined || groupId === "") return undefined;
  // A recorded token marks a chunk without a group with "" (see chunkPlan).
  const known =
    window.token?.groupIds.filter((id) => id !== "").length ??
    (window.groupId === undefined ? 0 : 1);
  const named = groupIds.filter((id) => id !== "").length;
  if (window.groupId !== undefined && named <= known) return undefined;
  return snapshot.resume ?? { spellId, groupIds: [groupId], chunkSizes: [window.sentRows.length] };
}

/**
 * The result of a row whose bulkStart may have reached the service without an answer recorded.
 *
 * ## Example
 * ```ts
 * unknownResult("spellrun resume --rerun-unknown sends it again"); // { status: "unknown", ... }
 * ```
 * @param reason the front end's sentence on how to send it again (default: one naming no command)
 * @return the result
 * @internal
 */
export function unknownResult(reason: string | undefined): RowResult {
  return reason ? { status: "unknown", outputs: { error: reason } } : NOT_RECORDED;
}
