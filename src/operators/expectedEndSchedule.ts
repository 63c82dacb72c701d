import type { PollOptions } from "../types.js";
import type { PollSchedule } from "./backoffSchedule.js";

/**
 * Where a run is expected to end, in ms after its start was answered: most likely between
 * `lowMs` and `highMs` (equal for an exact guess).
 *
 * ## Example
 * ```ts
 * const expected: ExpectedEnd = { lowMs: 2760, highMs: 3240 };
 * ```
 */
export interface ExpectedEnd {
  lowMs: number;
  highMs: number;
}

/** Polls never come closer together than this. */
const MIN_STEP_MS = 100;
/** Inside the window, aim for polls at most 5 % of the elapsed time apart… */
const TARGET_STEP = 0.05;
/** …but spend at most this many polls on it: a wide window gets coarser steps instead. */
const MAX_WINDOW_POLLS = 7;
/** A window wider than this (high / low) starts early enough without a sparse poll before it. */
const NARROW_WINDOW = 1.5;
/** After the window (a run longer than any seen), poll every 10 % of the elapsed time. */
const OVERRUN_STEP = 0.1;

/**
 * A poll schedule for a run whose end is expected in a window: one sparse poll at half the
 * window's start (in case this run is much shorter), then polls at the window's start and
 * through the window at steps growing with the elapsed time (5 % of it where at most 6 polls
 * cover the window, coarser for wider windows, never under 100 ms), and after the window every
 * 10 % of the elapsed time (at most `maxIntervalMs`), so a run longer than expected is still
 * seen within about 10 % of its length.
 *
 * ```
 * expected 9.2–10.8 s:  ·········p·········p─p─p─p─p··p···p····p   polls at 4.6, 9.2, 9.58, 9.97,
 *                       0       4.6 s     9.2 ─ 10.8  +10 % each    10.38, 10.8, 11.9, 13.1, 14.4 s
 * fixed schedule:       pp·p··p····p········p···········p·······   0.25, 0.5, 1, 2, 4, 8, 14, 20 s
 * ```
 *
 * ## Example
 * ```ts
 * api.getRun(runId).pipe(
 *   pollUntilDone(isFinished, DEFAULT_POLL, asyncScheduler, {
 *     schedule: expectedEndSchedule({ lowMs: 9200, highMs: 10800 }, DEFAULT_POLL),
 *   })
 * );
 * ```
 * @param expected the window where the run should end
 * @param options the fixed schedule's settings (`initialDelayMs` is the earliest sparse poll,
 *   `maxIntervalMs` the largest interval after the window)
 * @return the schedule
 */
export function expectedEndSchedule(
  expected: ExpectedEnd,
  options: Required<Pick<PollOptions, "initialDelayMs" | "maxIntervalMs">>
): PollSchedule {
  const lowMs = Math.max(expected.lowMs, MIN_STEP_MS);
  const highMs = Math.max(expected.highMs, lowMs);
  const earlyPollMs =
    highMs / lowMs < NARROW_WINDOW && lowMs / 2 >= options.initialDelayMs ? lowMs / 2 : undefined;
  const windowPolls = Math.min(
    MAX_WINDOW_POLLS,
    Math.max(1, Math.ceil(Math.log(highMs / lowMs) / Math.log(1 + TARGET_STEP)))
  );
  const windowStep = Math.pow(highMs / lowMs, 1 / windowPolls) - 1;
  return ({ elapsedMs }) => {
    if (earlyPollMs !== undefined && elapsedMs < earlyPollMs) return earlyPollMs - elapsedMs;
    if (elapsedMs < lowMs) return lowMs - elapsedMs;
    if (elapsedMs < highMs) return Math.max(MIN_STEP_MS, elapsedMs * windowStep);
    return Math.min(options.maxIntervalMs, Math.max(MIN_STEP_MS, elapsedMs * OVERRUN_STEP));
  };
}
