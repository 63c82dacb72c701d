import { SpellCodeLoadError } from "../errors/SpellCodeLoadError.js";
import { SpellHttpError } from "../errors/SpellHttpError.js";
import { SpellProtocolError } from "../errors/SpellProtocolError.js";
import { SpellRequestTooLargeError } from "../errors/SpellRequestTooLargeError.js";
import { shouldRetry } from "../operators/shouldRetry.js";

/**
 * What a failure of a bulk job means for money, derived from `shouldRetry`:
 *
 * - `refused`: the bulkStart failed where the service surely started nothing, only for now (429,
 *   503, a refused connection: the service is down), or the library's own code for the start
 *   failed to load before it was sent (`SpellCodeLoadError`). Sending it again later is safe. A refusal
 *   by the bulk's `beforeStart` gate (a spending guard), before anything was sent, is classed so
 *   by `BulkJobRunner` at the call (whatever the gate errors with).
 * - `permanent`: the bulkStart was refused and would be again (400, 401, 403, 404 unknown spell,
 *   413). Nothing was started; the command must change.
 * - `mayHaveStarted`: the bulkStart got no usable answer after it may have reached the service
 *   (408, a 5xx, a time-out, a dropped connection, an unreadable answer). Sending it again may
 *   pay twice: only with the user's explicit choice.
 * - `expired`: the service no longer knows a group it accepted (404/410 on getBulkRuns): its
 *   results are gone; the rows can only be run again.
 * - `unfinished`: reading a started group failed; its runs go on at the service and a resume
 *   collects them.
 *
 * ## Example
 * ```ts
 * classifyJobFailure(new SpellHttpError(408, {}, "POST", "bulkStart"), false); // "mayHaveStarted"
 * ```
 * @param error what the window's bulk failed with
 * @param groupKnown whether the service had named the window's group before the failure
 * @return the kind of failure
 */
export function classifyJobFailure(error: unknown, groupKnown: boolean): JobFailureKind {
  if (groupKnown) {
    // The group was accepted: a 404/410 now means it is gone, not late.
    if (error instanceof SpellHttpError && (error.status === 404 || error.status === 410)) {
      return "expired";
    }
    return "unfinished";
  }
  // The code that sends it failed to load: nothing left, and it may load on the next try.
  if (error instanceof SpellCodeLoadError) return "refused";
  // Too large to send: refused before anything left.
  if (error instanceof SpellRequestTooLargeError) return "permanent";
  // An answer we could not read came from a service that may have created the group.
  if (error instanceof SpellProtocolError) return "mayHaveStarted";
  // The core retries these for a start: still failing means still refused, nothing started.
  if (shouldRetry("bulkStart", error)) return "refused";
  // Transient for a read but not for a start: the group may exist.
  if (shouldRetry("getBulkRuns", error)) return "mayHaveStarted";
  // A 4xx other than 408/429: the service refused the request itself.
  if (error instanceof SpellHttpError) return "permanent";
  // Anything else (a bug, an unknown error type): assume the worst for money.
  return "mayHaveStarted";
}

/**
 * The kinds of `classifyJobFailure`.
 *
 * ## Example
 * ```ts
 * const kind: JobFailureKind = "refused";
 * ```
 */
export type JobFailureKind = "refused" | "permanent" | "mayHaveStarted" | "expired" | "unfinished";

/**
 * True when the failure started nothing at the service (`refused` or `permanent`).
 *
 * ## Example
 * ```ts
 * if (startedNothing(result.failure.kind)) console.error("nothing was started");
 * ```
 * @param kind the failure's kind
 * @return whether nothing was started
 */
export function startedNothing(kind: JobFailureKind): boolean {
  return kind === "refused" || kind === "permanent";
}
