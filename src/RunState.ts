/**
 * The state of one run, as the service reports it.
 *
 * `inProgress` is the only non-terminal state. States are compared without case (`"SUCCESS"` is
 * `success`); `cancelled` / `canceled` end a run as `error`. Any other state string is treated
 * as "not finished" and surfaced as `inProgress` with the text in `serviceState` (the service
 * document lists four states, but a new one must never make a client stop polling a run that
 * costs money); polling is bounded by `PollOptions.maxPollMs`.
 *
 * ## Example
 * ```ts
 * const finished = (state: RunState) => TERMINAL_STATES.includes(state);
 * ```
 */
export type RunState = "inProgress" | "success" | "failure" | "error";

/**
 * How many runs of a bulk are in each state, `pending` being rows not visible at the service
 * yet (`BulkSnapshot.counts`).
 *
 * ## Example
 * ```ts
 * const counts: RunStateCounts = { pending: 0, inProgress: 2, success: 8, failure: 0, error: 0 };
 * ```
 */
export type RunStateCounts = Record<RunState | "pending", number>;

/**
 * The states after which a run never changes again.
 *
 * ## Example
 * ```ts
 * if (TERMINAL_STATES.includes(snapshot.state)) console.log("finished");
 * ```
 */
export const TERMINAL_STATES: readonly RunState[] = Object.freeze([
  "success",
  "failure",
  "error",
] as const);
