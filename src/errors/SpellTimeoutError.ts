import { SpellError } from "./SpellError.js";

/**
 * A wait-mode run took longer than `waitTimeoutMs`. The run may still be going on at the service;
 * long spells should use polling (`{ wait: false }`).
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
  override name = "SpellTimeoutError" as const;

  constructor(
    readonly method: string,
    readonly endpoint: string,
    readonly timeoutMs: number
  ) {
    super(
      `${method} /spells/${endpoint} did not answer within ${timeoutMs} ms; ` +
        `use polling mode ({ wait: false }) for long-running spells`
    );
  }
}
