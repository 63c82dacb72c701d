import { SpellError } from "../errors/SpellError.js";

/**
 * Checks a client's slot limit (`maxInFlight`, `maxRunsInProgress`): at least 1.
 *
 * ## Example
 * ```ts
 * checkLimit(options.maxRunsInProgress ?? 64, "maxRunsInProgress");
 * ```
 * @param limit the limit given
 * @param option the option's name, for the message
 * @throws SpellError naming the option when the limit is below 1 or not a number
 * @internal
 */
export function checkLimit(limit: number, option: string): void {
  if (!(limit >= 1)) {
    throw new SpellError(`SpellClient: ${option} must be at least 1, got ${String(limit)}`);
  }
}
