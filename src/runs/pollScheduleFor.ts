import { backoffSchedule, type PollSchedule } from "../operators/backoffSchedule.js";
import { expectedEndSchedule } from "../operators/expectedEndSchedule.js";
import type { PollOptions } from "../types.js";
import { expectedEndAround, type RunDurationEstimator } from "./RunDurationEstimator.js";

/**
 * The poll schedule of one run of `spellId`: around the caller's expected duration if given,
 * else around what `durations` learned from the spell's earlier runs, else the fixed schedule.
 *
 * ## Example
 * ```ts
 * pollRun(api, runId, poll, scheduler, pollScheduleFor(durations, "summarize", undefined, poll));
 * ```
 * @param durations what the client learned
 * @param spellId the spell about to run
 * @param expectedDurationMs the caller's own expectation (`RunOptions.expectedDurationMs`)
 * @param poll the client's poll settings
 * @return the schedule
 * @internal
 */
export function pollScheduleFor(
  durations: RunDurationEstimator,
  spellId: string,
  expectedDurationMs: number | undefined,
  poll: Required<PollOptions>
): PollSchedule {
  const expected =
    expectedDurationMs !== undefined && Number.isFinite(expectedDurationMs)
      ? expectedEndAround(Math.max(0, expectedDurationMs))
      : durations.expectedEnd(spellId);
  return expected ? expectedEndSchedule(expected, poll) : backoffSchedule(poll);
}
