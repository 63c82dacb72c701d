import type { Endpoint, HttpMethod } from "../types.js";
import { describeRequest } from "./describeRequest.js";
import { SpellError } from "./SpellError.js";

/**
 * The service answered with a status other than 2xx.
 *
 * `body` is the parsed JSON error body (or the raw text when it is not JSON); `retryAfterMs` is
 * the `Retry-After` header converted to milliseconds, when present and valid.
 *
 * ## Example
 * ```ts
 * catchError((error) => {
 *   if (error instanceof SpellHttpError && error.status === 401) return of(askForKey());
 *   throw error;
 * });
 * ```
 */
export class SpellHttpError extends SpellError {
  override name = "SpellHttpError" as const;

  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly method: HttpMethod,
    readonly endpoint: Endpoint,
    readonly retryAfterMs?: number,
    /** The URL requested (host, path and query; never a header or the key), when known. */
    readonly url?: string
  ) {
    super(`${describeRequest(method, endpoint)} failed with HTTP ${status}${describeBody(body)}`);
  }
}

function describeBody(body: unknown): string {
  if (body && typeof body === "object" && "message" in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === "string" && message) return `: ${message}`;
  }
  return "";
}
