import type { RunState, RunStateCounts } from "./types.js";

/**
 * Counts runs by state; every state is present, zero when no run is in it (so
 * `countRunStates([])` is the empty count).
 *
 * ## Example
 * ```ts
 * countRunStates([{ state: "success" }, { state: "pending" }]).success; // 1
 * ```
 * @param runs the runs (bulk entries or anything with a `state`)
 * @return the count per state
 */
export function countRunStates(
  runs: ReadonlyArray<{ state: RunState | "pending" }>
): RunStateCounts {
  const counts: RunStateCounts = { pending: 0, inProgress: 0, success: 0, failure: 0, error: 0 };
  for (const run of runs) counts[run.state]++;
  return counts;
}
