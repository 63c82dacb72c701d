/**
 * Elapsed time and an estimate of the time left, from the rate at which runs have finished.
 *
 * ## Example
 * ```ts
 * progressEstimate(startedAt, Date.now(), 120, 500); // { elapsedMs: 30000, remainingMs: 95000 }
 * ```
 */
export interface ProgressEstimate {
  elapsedMs: number;
  /** Unknown (undefined) until a run has finished; 0 once all have. */
  remainingMs: number | undefined;
}

/**
 * Estimates the time left of a bulk as `elapsed / done × (total − done)`: runs of one bulk
 * take similar time, and the service works on many at once, so the average pace is the honest
 * guess (never a promise; the view says "about").
 *
 * ## Example
 * ```ts
 * const { elapsedMs, remainingMs } = progressEstimate(startedAt, Date.now(), done, total);
 * ```
 */
export function progressEstimate(
  startedAt: number,
  now: number,
  done: number,
  total: number
): ProgressEstimate {
  const elapsedMs = Math.max(0, now - startedAt);
  if (done >= total) return { elapsedMs, remainingMs: 0 };
  if (done <= 0) return { elapsedMs, remainingMs: undefined };
  return { elapsedMs, remainingMs: Math.round((elapsedMs / done) * (total - done)) };
}

/**
 * A duration for people: "45 s", "3 min 05 s", "1 h 02 min".
 *
 * ## Example
 * ```ts
 * formatDuration(185_000); // "3 min 05 s"
 * ```
 */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}
