import {
  classifyJobFailure,
  SpellCodeLoadError,
  SpellRequestTooLargeError,
  startedNothing,
} from "spellrun";

/**
 * Whether a start failed where the service surely started nothing, by the core's one rule
 * (`classifyJobFailure` and `startedNothing`): a 4xx refusal other than 408/429 (an unknown
 * spell's 404), a request too large to send, the library's code for the start failing to load
 * before it was sent, or a refusal the core still met after its retries.
 * A time-out, a dropped connection, a 5xx or an unreadable answer may have started runs: false.
 * Only an error of a start request itself counts (`start`, or the `bulkStart` of a bulk or of a
 * batch of `SPELL.RUN` cells): a later read's 404 is not a refusal.
 *
 * ## Example
 * ```ts
 * if (startRefused(error)) guard.refund(runs, "formulas");
 * ```
 *
 * @param error What the start failed with.
 * @return True when nothing was started.
 */
export function startRefused(error: unknown): boolean {
  const endpoint = (error as { endpoint?: unknown } | null | undefined)?.endpoint;
  const ofStart = endpoint === "start" || endpoint === "bulkStart";
  const beforeSending =
    error instanceof SpellRequestTooLargeError || error instanceof SpellCodeLoadError;
  if (!beforeSending && !ofStart) return false;
  return startedNothing(classifyJobFailure(error, false));
}
