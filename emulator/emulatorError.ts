/** Extra parts of an {@link EmulatorError} response. */
export interface EmulatorErrorOptions {
  /** Fields added to the error body (e.g. the runId of a wait that timed out). */
  body?: Record<string, unknown>;
  /** Response headers (e.g. Retry-After). */
  headers?: Record<string, string>;
}

/**
 * An error a route throws to answer with the emulator's error shape (see errorBody.ts).
 *
 * @example
 * ```ts
 * throw new EmulatorError(404, "run_not_found", `Unknown runId "${runId}"`);
 * ```
 */
export class EmulatorError extends Error {
  override name = "EmulatorError" as const;

  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly options: EmulatorErrorOptions = {}
  ) {
    super(message);
  }
}
