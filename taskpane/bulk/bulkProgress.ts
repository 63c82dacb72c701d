import { countRunStates, type RowStatus, type RowStatusCounts, type RunState } from "spellrun";
import { progressEstimate } from "./progressEstimate.js";

/** Where a bulk is in its life. */
export type BulkPhase = "idle" | "running" | "cancelling" | "done" | "cancelled" | "failed";

/**
 * What the bulk view shows, emitted after every snapshot and at the end.
 *
 * ## Example
 * ```ts
 * controller.progress$.subscribe((p) => (bar.value = p.finished / p.total));
 * ```
 */
export interface BulkProgress {
  phase: BulkPhase;
  spellId: string;
  total: number;
  /** Runs in a final state (the bar's "done"). */
  finished: number;
  counts: Record<RunState | "pending", number>;
  /** Rows marked stale (inputs changed; outputs not written). */
  stale: number;
  /** Rows marked cancelled. */
  cancelled: number;
  /**
   * Finished runs whose rows can no longer be found (deleted, or edited where another record now
   * is): their results are kept (`keptResults()`), never written elsewhere.
   */
  kept: number;
  /** Rows a "Retry failed rows" would run again. */
  retryable: number;
  elapsedMs: number;
  remainingMs: number | undefined;
  /** A sentence for the user when something needs saying (failure, resume hint). */
  message?: string;
}

/**
 * What the progress is projected from: the job's size and start, the engine's counts of rows
 * written and runs going on, and the pane's own marks.
 *
 * ## Example
 * ```ts
 * const progress = projectProgress({ phase: "running", spellId, total: 36, startedAt, now: Date.now(), written: {}, running: 36, stale: 0, cancelled: 0, kept: 0, retryable: 0 });
 * ```
 */
export interface ProgressInput {
  phase: BulkPhase;
  spellId: string;
  /** Runs of the job. */
  total: number;
  startedAt: number;
  now: number;
  /** Rows written per status (the engine's counts). */
  written: Partial<RowStatusCounts> | Partial<Record<RowStatus, number>>;
  /** Runs going on at the service (the engine's). */
  running: number;
  /** The start failed: no run is going on, whatever the engine last saw. */
  startFailed?: boolean;
  stale: number;
  cancelled: number;
  kept: number;
  /** Rows "Retry failed rows" would run again (counted only when no bulk is going on). */
  retryable: number;
  message?: string;
}

/**
 * The progress the view shows, projected from the engine's counts and the pane's marks. Pure.
 *
 * A row whose run may have started, or whose group expired, has no result: an error here. Once
 * cancelled the unfinished runs are the cancelled ones; after a failed start nothing is running.
 *
 * ## Example
 * ```ts
 * subject.next(projectProgress(input));
 * ```
 *
 * @param input The job, the engine's counts and the pane's marks.
 * @return The progress.
 */
export function projectProgress(input: ProgressInput): BulkProgress {
  const { phase, total } = input;
  const written = input.written as Partial<Record<RowStatus, number>>;
  const counts = countRunStates([]);
  counts.success = written.success ?? 0;
  counts.failure = written.failure ?? 0;
  counts.error = (written.error ?? 0) + (written.unknown ?? 0) + (written.expired ?? 0);
  const ended = counts.success + counts.failure + counts.error + (written.cancelled ?? 0);
  if (phase !== "cancelled" && !input.startFailed) {
    counts.inProgress = Math.min(input.running, total - ended);
    counts.pending = Math.max(0, total - ended - counts.inProgress);
  }
  const finished = counts.success + counts.failure + counts.error;
  const { elapsedMs, remainingMs } = progressEstimate(input.startedAt, input.now, finished, total);
  return {
    phase,
    spellId: input.spellId,
    total,
    finished,
    counts,
    stale: input.stale,
    cancelled: input.cancelled,
    kept: input.kept,
    retryable: phase === "running" || phase === "cancelling" ? 0 : input.retryable,
    elapsedMs,
    remainingMs: phase === "running" ? remainingMs : undefined,
    message: input.message,
  };
}

/**
 * The progress before any bulk (the view shows nothing).
 *
 * ## Example
 * ```ts
 * new BehaviorSubject(idleProgress(""));
 * ```
 *
 * @param spellId The spell named.
 * @return The idle progress.
 */
export function idleProgress(spellId: string): BulkProgress {
  return {
    phase: "idle",
    spellId,
    total: 0,
    finished: 0,
    counts: countRunStates([]),
    stale: 0,
    cancelled: 0,
    kept: 0,
    retryable: 0,
    elapsedMs: 0,
    remainingMs: undefined,
  };
}
