import type { PollOptions } from "../types.js";

/**
 * When to send the next poll: given how many answers came back so far and how long ago the
 * poll began, the delay in ms before the next request. `pollUntilDone` asks it after every
 * answer (and once before the first poll, with `answers: 0`).
 *
 * ## Example
 * ```ts
 * const everySecond: PollSchedule = () => 1000;
 * ```
 */
export type PollSchedule = (tick: PollTick) => number;

/**
 * What a `PollSchedule` knows when it picks the next delay.
 *
 * ## Example
 * ```ts
 * const tick: PollTick = { answers: 2, elapsedMs: 750 };
 * ```
 */
export interface PollTick {
  /** Answers received so far; 0 before the first poll. */
  answers: number;
  /** Time since the poll was subscribed, on the poll's scheduler. */
  elapsedMs: number;
}

/**
 * The fixed schedule for runs the client knows nothing about: wait `initialDelayMs`, then
 * `intervalMs`, growing by `growth` after every answer up to `maxIntervalMs`.
 *
 * ```
 * defaults:  ─250─┤─250─┤──500──┤────1000────┤ … ├──────6000──────┤──────6000──────┤
 * ```
 *
 * ## Example
 * ```ts
 * backoffSchedule({ initialDelayMs: 250, intervalMs: 250, growth: 2, maxIntervalMs: 6000 })({ answers: 3, elapsedMs: 0 }); // 1000
 * ```
 * @param options the timing (every field required: merge with `DEFAULT_POLL` first)
 * @return the schedule
 */
export function backoffSchedule(
  options: Required<Pick<PollOptions, "initialDelayMs" | "intervalMs" | "growth" | "maxIntervalMs">>
): PollSchedule {
  return ({ answers }) =>
    answers === 0 ? options.initialDelayMs : pollIntervalMs(answers - 1, options);
}

/**
 * The wait before poll number `pollIndex + 2` (the interval after answer `pollIndex`, 0-based):
 * `intervalMs * growth^pollIndex`, capped at `maxIntervalMs`.
 *
 * ## Example
 * ```ts
 * pollIntervalMs(2, { ...DEFAULT_POLL, intervalMs: 100, growth: 2 }); // 400
 * ```
 * @param pollIndex the answer after which the interval starts (0-based)
 * @param options the timing
 * @return the interval in ms
 */
export function pollIntervalMs(
  pollIndex: number,
  options: Required<Pick<PollOptions, "intervalMs" | "growth" | "maxIntervalMs">>
): number {
  const grown = options.intervalMs * Math.pow(options.growth, pollIndex);
  return Math.round(Math.min(grown, options.maxIntervalMs));
}
