import type { Endpoint, HttpMethod } from "../types.js";
import { describeRequest } from "./describeRequest.js";
import { SpellError } from "./SpellError.js";

/**
 * An answer of the service was larger than `SpellClientOptions.maxResponseBytes`: reading stopped
 * there (the connection is dropped), so a broken or hostile service cannot fill the memory.
 * Not retried: the same request would get the same answer.
 *
 * ## Example
 * ```ts
 * if (error instanceof SpellResponseTooLargeError) console.warn(error.limitBytes);
 * ```
 */
export class SpellResponseTooLargeError extends SpellError {
  static override readonly errorName: string = "SpellResponseTooLargeError";

  override name = "SpellResponseTooLargeError" as const;

  constructor(
    readonly method: HttpMethod,
    readonly endpoint: Endpoint,
    readonly limitBytes: number,
    /** The URL requested (host, path and query; never a header or the key), when known. */
    readonly url?: string
  ) {
    super(
      `${describeRequest(method, endpoint)} answered more than ${limitBytes} bytes; ` +
        "reading stopped (raise maxResponseBytes if such answers are expected)"
    );
  }
}
