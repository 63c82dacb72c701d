import type { ClientParts } from "./ClientParts.js";
import { DEFAULT_POLL } from "../operators/pollUntilDone.js";
import type { RetryOptions } from "../types.js";
import { SpellBulkApi } from "../http/SpellBulkApi.js";
import type { BulkContext } from "./bulkSnapshots.js";

/**
 * A client's bulk machinery, with a call's own retry timing laid over the client's when given:
 * what `bulk`, `resumeBulk` and batched runs send and poll with.
 *
 * ## Example
 * ```ts
 * bulkSnapshots(bulkContextOf(parts, { limit: 10 }), "echo", chunks);
 * ```
 * @param parts the client's parts
 * @param retry the call's retry settings, if any
 * @return the bulk context
 * @internal
 */
export function bulkContextOf(parts: ClientParts, retry?: RetryOptions): BulkContext {
  // The bulk endpoints come with this module (loaded with the first bulk or batch).
  const api = parts.api.sharedAs(SpellBulkApi, retry);
  return {
    api,
    limiter: parts.limiter,
    poll: parts.poll,
    retry: { ...parts.options.retry, ...retry },
    scheduler: parts.scheduler,
    visibilityGraceMs: parts.poll.bulkVisibilityGraceMs ?? DEFAULT_POLL.bulkVisibilityGraceMs,
    // A cancel is a read: what an unsubscribe leaves behind ends within the read limit (or the
    // start limit, if shorter), not the longer start limit of a bulkStart still in flight.
    afterUnsubscribeMs: Math.min(parts.api.readTimeoutMs, parts.api.startTimeoutMs),
    logBulkStartRetry: api.retryLog("bulkStart"),
  };
}
