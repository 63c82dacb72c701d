import type { Endpoint, HttpMethod } from "../types.js";
import { describeRequest } from "./describeRequest.js";
import { SpellError } from "./SpellError.js";

/**
 * A request got no complete answer in time: a wait-mode run took longer than `waitTimeoutMs`, or
 * any other request passed its `timeouts` limit (no answer, or a body trickling in). A read that
 * times out is retried like a network error; a start is not (it may have created the run), and
 * fails with this error. The run may still be going on at the service.
 *
 * ## Example
 * ```ts
 * client.run("summarize", { text }, { wait: true }).pipe(
 *   catchError((error) => {
 *     if (error instanceof SpellTimeoutError) console.warn(error.message);
 *     return EMPTY;
 *   }),
 * );
 * ```
 */
export class SpellTimeoutError extends SpellError {
  static override readonly errorName: string = "SpellTimeoutError";

  override name = "SpellTimeoutError" as const;

  constructor(
    readonly method: HttpMethod,
    readonly endpoint: Endpoint,
    readonly timeoutMs: number,
    advice = "use polling mode ({ wait: false }) for long-running spells",
    /** The URL requested (host, path and query; never a header or the key), when known. */
    readonly url?: string
  ) {
    super(`${describeRequest(method, endpoint)} did not answer within ${timeoutMs} ms; ${advice}`);
  }
}
