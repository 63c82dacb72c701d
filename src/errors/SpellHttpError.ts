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
  static override readonly errorName: string = "SpellHttpError";

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
    const explanation = serviceMessageOf(body);
    super(
      `${describeRequest(method, endpoint)} failed with HTTP ${status}` +
        (explanation === undefined ? "" : `: ${explanation}`)
    );
  }

  /**
   * The service's own explanation: the error body's `message` when it is a non-empty text,
   * trimmed (already free of the key, like the whole body).
   */
  get serviceMessage(): string | undefined {
    return serviceMessageOf(this.body);
  }
}

function serviceMessageOf(body: unknown): string | undefined {
  if (body !== null && typeof body === "object" && "message" in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === "string" && message.trim() !== "") return message.trim();
  }
  return undefined;
}
