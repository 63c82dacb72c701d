import type { SchedulerLike } from "rxjs";
import type { SpellLogger } from "../SpellLogEvent.js";
import type { RequestTimeouts, RetryOptions } from "../types.js";

/**
 * Connection settings of `SpellApi` (a subset of `SpellClientOptions`).
 *
 * ## Example
 * ```ts
 * const options: SpellApiOptions = { apiKey, baseUrl, pollBaseUrl, authHeader: "x-api-key" };
 * ```
 * @internal
 */
export interface SpellApiOptions {
  apiKey: string;
  baseUrl: string;
  pollBaseUrl: string;
  authHeader?: "authorization" | "x-api-key";
  /** Name each start and bulkStart (`SpellClientOptions.idempotencyKeys`). */
  idempotencyKeys?: boolean;
  fetch?: typeof fetch;
  retry?: RetryOptions;
  scheduler?: SchedulerLike;
  timeouts?: RequestTimeouts;
  maxResponseBytes?: number;
  /** Requests in flight at once (`SpellClientOptions.maxInFlight`). */
  maxInFlight?: number;
  /** Limit of a wait-mode start, from sending it (`SpellClientOptions.waitTimeoutMs`). */
  waitTimeoutMs?: number;
  /** Where log events go (`SpellClientOptions.logger`). */
  logger?: SpellLogger;
  /** Log request and answer bodies, scrubbed (`SpellClientOptions.logBodies`). */
  logBodies?: boolean;
}
