import { SpellError } from "./SpellError.js";

/**
 * A call passed its own time limit (`RunOptions.timeoutMs`, `BulkOptions.timeoutMs`), counted
 * from subscribing: waiting for a slot, polls and retries included. The call was stopped as an
 * unsubscribe stops it: nothing more is sent, unfinished bulk groups are cancelled, and a single
 * run already started may still finish (and be paid for) at the service.
 *
 * ## Example
 * ```ts
 * client.bulk("summarize", rows, { timeoutMs: 60_000 }).subscribe({
 *   error: (error) => {
 *     if (error instanceof SpellCallTimeoutError) console.warn(error.message);
 *   },
 * });
 * ```
 */
export class SpellCallTimeoutError extends SpellError {
  static override readonly errorName: string = "SpellCallTimeoutError";

  override name = "SpellCallTimeoutError" as const;

  /**
   * @param call what was stopped, e.g. `run of "summarize"`
   * @param timeoutMs the limit that passed
   */
  constructor(
    call: string,
    readonly timeoutMs: number
  ) {
    super(`The ${call} did not finish within its timeoutMs of ${timeoutMs} ms and was stopped`);
  }
}
