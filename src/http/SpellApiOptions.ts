import type { SpellClientOptions } from "../types.js";

/**
 * Connection settings of `SpellApi`: the options of `SpellClientOptions` that the transport
 * reads, documented there (one source for both).
 *
 * ## Example
 * ```ts
 * const options: SpellApiOptions = { apiKey, baseUrl, pollBaseUrl, authHeader: "x-api-key" };
 * ```
 * @internal
 */
export type SpellApiOptions = Pick<
  SpellClientOptions,
  | "apiKey"
  | "baseUrl"
  | "pollBaseUrl"
  | "authHeader"
  | "idempotencyKeys"
  | "fetch"
  | "retry"
  | "scheduler"
  | "timeouts"
  | "maxResponseBytes"
  | "maxInFlight"
  | "waitTimeoutMs"
  | "logger"
  | "logBodies"
>;
