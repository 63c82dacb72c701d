import type { PollOptions } from "../types.js";
import { backoffSchedule, type PollSchedule } from "./backoffSchedule.js";

/** Polls never come closer together than this (or `intervalMs`, if shorter). */
const MIN_STEP_MS = 100;
/** How late a finish may be seen: the larger of this and `FINISH_SLACK` of the bulk's time. */
const FINISH_SLACK_MS = 300;
const FINISH_SLACK = 0.1;
/** Far from the predicted end, a poll goes this part of the way there (and learns the pace). */
const APPROACH = 0.7;
/** Before any run has finished, the wait grows by at most this factor of the time elapsed. */
const DISCOVERY_STEP = 1;
/** Near the predicted end, the poll goes this part of the slack after it. */
const AIM_AFTER = 0.15;

/**
 * A group's progress as one poll saw it.
 *
 * ## Example
 * ```ts
 * const seen: BulkPace = { elapsedMs: 800, finished: 120 };
 * ```
 */
export interface BulkPace {
  /** Since the poll began (the bulkStart's answer). */
  elapsedMs: number;
  /** Runs of the group finished then. */
  finished: number;
}

/**
 * A bulk group's poll schedule that learns from the service's pace, as the single-run poll learns
 * from the spell's durations: until a run has finished it waits as the fixed schedule does (no
 * pace to learn from); once runs finish, it predicts the group's end from the pace between the
 * first answer that showed finished runs and the latest one, and the runs left, then polls part of
 * the way there while the end is far (each answer refines the pace) and just after the predicted
 * end (15 % of the slack, max(300 ms, 10 %) of the predicted time) when it is near; past it,
 * every 10 % of the elapsed time. A group's end is so seen within
 * max(300 ms, 10 %) of the last run's end in a handful of polls, where the doubling schedule
 * (0.25 → 0.5 → 1 → 2 → 4 s) can see a 2.3 s bulk at 4 s. Never polls more often than
 * `min(100 ms, intervalMs)` nor waits more than `maxIntervalMs`.
 *
 * ```
 * finished:  0    40        200              500 (the group's size)
 * polls:     ·p───p─────────p─────────p──p   0.25, 0.5 (pace: 160/s → end ≈ 3.1 s),
 *                                             2.0, 2.7, 3.1 s
 * doubling:  ·p──p────p─────────p───────────────────p   0.25, 0.5, 1, 2, 4 s
 * ```
 *
 * ## Example
 * ```ts
 * const pace = bulkPaceSchedule(500, DEFAULT_POLL);
 * getBulkRuns$.pipe(tap((runs) => pace.observe({ elapsedMs: now() - start, finished: count(runs) })),
 *   pollUntilDone(isDone, DEFAULT_POLL, scheduler, { schedule: pace.schedule }));
 * ```
 * @param size the group's runs
 * @param options the fixed schedule's settings (its first wait, its growth before any run has
 *   finished, and the bounds)
 * @return the schedule, and `observe` to tell it each answer's progress
 */
export function bulkPaceSchedule(
  size: number,
  options: Required<Pick<PollOptions, "initialDelayMs" | "intervalMs" | "growth" | "maxIntervalMs">>
): { schedule: PollSchedule; observe(seen: BulkPace): void } {
  const fixed = backoffSchedule(options);
  const minStepMs = Math.min(MIN_STEP_MS, options.intervalMs);
  let first: BulkPace | undefined;
  let previous: BulkPace | undefined;
  let last: BulkPace | undefined;
  const bounded = (ms: number) => Math.min(options.maxIntervalMs, Math.max(minStepMs, ms));
  return {
    observe(seen) {
      if (!(seen.finished > 0)) return;
      if (first === undefined) first = seen;
      previous = last;
      last = seen;
    },
    schedule(tick) {
      const { elapsedMs } = tick;
      if (first === undefined || last === undefined) {
        // No pace yet: the fixed schedule, but never a wait longer than the time elapsed (a
        // doubling wait can overshoot a short bulk by as much as it has run).
        const wait = fixed(tick);
        return tick.answers === 0 ? wait : bounded(Math.min(wait, elapsedMs * DISCOVERY_STEP));
      }
      // The pace since the answer before (the runs going now), else since the first finish,
      // else since the start (a first wave still finishing: the pace is only a lower bound).
      const since = previous !== undefined && last.finished > previous.finished ? previous : first;
      const rate =
        last.elapsedMs > since.elapsedMs && last.finished > since.finished
          ? (last.finished - since.finished) / (last.elapsedMs - since.elapsedMs)
          : last.finished / Math.max(1, last.elapsedMs);
      const endMs = last.elapsedMs + Math.max(0, size - last.finished) / rate;
      const remainingMs = endMs - elapsedMs;
      const slackMs = Math.max(FINISH_SLACK_MS, FINISH_SLACK * endMs);
      // Past the predicted end: every 10 % of the elapsed time (at most the slack).
      if (remainingMs <= 0) return bounded(Math.min(slackMs, FINISH_SLACK * elapsedMs));
      // Near it: just after the predicted end (the last runs straggle), well within the slack.
      if (remainingMs <= 2 * slackMs) return bounded(remainingMs + AIM_AFTER * slackMs);
      // Far from it: part of the way, but no longer than the time elapsed while the pace comes
      // from a first wave of runs only (twice it once two answers showed runs finishing).
      const cap = previous === undefined ? elapsedMs : 2 * elapsedMs;
      return bounded(Math.min(remainingMs * APPROACH, cap));
    },
  };
}
