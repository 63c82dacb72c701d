import { classifyJobFailure, SpellRequestTooLargeError, startedNothing } from "../../src";

/**
 * Whether a start failed where the service surely started nothing, by the core's one rule
 * (`classifyJobFailure` and `startedNothing`): a 4xx refusal other than 408/429 (an unknown
 * spell's 404), a request too large to send, or a refusal the core still met after its retries.
 * A time-out, a dropped connection, a 5xx or an unreadable answer may have started runs: false.
 * Only an error of the start request itself counts (a later read's 404 is not a refusal).
 *
 * ## Example
 * ```ts
 * if (startRefused(error, "bulkStart")) guard.refund(runs, "formulas");
 * ```
 *
 * @param error What the start failed with.
 * @param endpoint The start request: `start` (SPELL.RUN) or `bulkStart`.
 * @return True when nothing was started.
 */
export function startRefused(error: unknown, endpoint: "start" | "bulkStart"): boolean {
  const of = (error as { endpoint?: unknown } | null | undefined)?.endpoint;
  if (!(error instanceof SpellRequestTooLargeError) && of !== endpoint) return false;
  return startedNothing(classifyJobFailure(error, false));
}
