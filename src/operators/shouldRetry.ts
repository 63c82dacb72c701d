import { SpellHttpError } from "../errors/SpellHttpError.js";
import { SpellNetworkError } from "../errors/SpellNetworkError.js";
import { SpellTimeoutError } from "../errors/SpellTimeoutError.js";
import type { Endpoint } from "../types.js";

/**
 * Decides whether a failed request may be sent again. Pure; read it top to bottom.
 *
 * Money rule: `start` and `bulkStart` create runs that cost the user, so they are retried only
 * where the service surely started nothing. Reads and `cancelBulk` are idempotent and are
 * retried on anything transient.
 *
 * ## Example
 * ```ts
 * shouldRetry("getRun", new SpellHttpError(502, {}, "GET", "getRun")); // true
 * shouldRetry("start", new SpellHttpError(502, {}, "POST", "start")); // false
 * ```
 * @param endpoint the endpoint the failed request went to
 * @param error what the request failed with
 * @return true when sending the request again is safe and useful
 */
export function shouldRetry(endpoint: Endpoint, error: unknown): boolean {
  const createsRuns = endpoint === "start" || endpoint === "bulkStart";

  if (error instanceof SpellNetworkError) {
    // Refused connection: the request never reached the service, so nothing was started.
    if (error.connectionRefused) return true;
    // Reset, dropped or timed out mid-way: the service may have started the run; never repeat it.
    // (Browsers report every network failure as a bare TypeError, so a start is never retried there.)
    return !createsRuns;
  }

  if (error instanceof SpellHttpError) {
    const status = error.status;
    // 429 Too Many Requests: rejected before any work; safe everywhere, after Retry-After.
    if (status === 429) return true;
    // 503 Service Unavailable: the service refused the request without starting it.
    if (status === 503) return true;
    // 408 Request Timeout: the server gave up on the request; a start might be half done.
    if (status === 408) return !createsRuns;
    // Other 5xx: the failure may have happened after the run was created; reads only.
    if (status >= 500) return !createsRuns;
    // Every other 4xx (400, 401, 403, 404, 413, ...) will fail the same way again.
    return false;
  }

  if (error instanceof SpellTimeoutError) {
    // No complete answer in time: like a dropped connection, a start may have created the run.
    return !createsRuns;
  }

  // Protocol errors and programming errors are not transient.
  return false;
}
