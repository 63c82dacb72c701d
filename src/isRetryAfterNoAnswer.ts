import type { SpellLogEvent } from "./SpellLogEvent.js";

/**
 * Whether a log event says a request is about to be sent again because its host did not answer
 * (connection refused, dropped, or no answer in time), as opposed to an error answer (429, 503,
 * 500 on a read). A front end can tell its user at once that nothing answers yet, instead of
 * staying silent through the whole retry schedule (about 9 s with `DEFAULT_RETRY`) before the
 * final error.
 *
 * It only observes: which requests are retried stays `shouldRetry`'s decision (a `start` or
 * `bulkStart` is retried only when its connection was refused, so nothing was started).
 *
 * ```
 * logger:  request  failed(no status)  retry 1  …  retry 5  failed
 *                                      └─ true  …  true
 * ```
 *
 * ## Example
 * ```ts
 * const client = new SpellClient({
 *   ...connection,
 *   logger: (event) => {
 *     if (isRetryAfterNoAnswer(event)) console.error(`No answer from ${new URL(event.url).origin} yet; retrying`);
 *   },
 * });
 * ```
 * @param event a client's log event
 * @return true for a `retry` event after a failure without any answer from the host
 */
export function isRetryAfterNoAnswer(
  event: SpellLogEvent
): event is Extract<SpellLogEvent, { type: "retry" }> {
  return event.type === "retry" && event.noAnswer;
}
