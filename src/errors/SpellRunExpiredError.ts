import { SpellError } from "./SpellError.js";

/**
 * A run remembered as started for these inputs (before a reload) is no longer known to the
 * service (it answered 404: the run expired). It is not sent again by itself, since it may have
 * succeeded and been paid for: the record is forgotten, and the next call with the inputs sends
 * a new run. `cause` is the service's answer.
 *
 * ## Example
 * ```ts
 * client.run("summarize", inputs, { wait: false }).subscribe({
 *   error: (error) => {
 *     if (error instanceof SpellRunExpiredError) askBeforeRunningAgain();
 *   },
 * });
 * ```
 */
export class SpellRunExpiredError extends SpellError {
  static override readonly errorName: string = "SpellRunExpiredError";

  override name = "SpellRunExpiredError" as const;

  /** @param cause the service's 404 */
  constructor(cause: unknown) {
    super(
      "The run started earlier for these inputs is no longer known to the service (it expired); " +
        "it is not sent again by itself: run it again (recalculate) to send a new one",
      { cause }
    );
  }
}
