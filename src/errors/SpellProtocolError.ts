import type { Endpoint, HttpMethod } from "../types.js";
import { describeRequest } from "./describeRequest.js";
import { SpellError } from "./SpellError.js";

/**
 * The service answered 2xx with a body the core cannot use (not JSON, a missing or mistyped
 * field). Extra fields are never an error.
 *
 * ## Example
 * ```ts
 * if (error instanceof SpellProtocolError) console.error("unexpected answer:", error.body);
 * ```
 */
export class SpellProtocolError extends SpellError {
  static override readonly errorName: string = "SpellProtocolError";

  override name = "SpellProtocolError" as const;

  constructor(
    readonly method: HttpMethod,
    readonly endpoint: Endpoint,
    problem: string,
    readonly body: unknown,
    /** The URL requested (host, path and query; never a header or the key), when known. */
    readonly url?: string
  ) {
    super(`${describeRequest(method, endpoint)} answered an unexpected body: ${problem}`);
  }
}
