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
  override name = "SpellProtocolError" as const;

  constructor(
    readonly method: string,
    readonly endpoint: string,
    problem: string,
    readonly body: unknown
  ) {
    super(`${method} /spells/${endpoint} answered an unexpected body: ${problem}`);
  }
}
