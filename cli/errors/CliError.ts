import { EXIT_CODES, type ExitCode } from "./exitCodes.js";

/**
 * An error the command line reports as one clear line and turns into an exit code. The base of
 * `UsageError` and `InputError`; never carries the API key.
 *
 * ## Example
 * ```ts
 * throw new CliError("The journal is not a spellrun journal", EXIT_CODES.usage);
 * ```
 */
export class CliError extends Error {
  override name = "CliError";

  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT_CODES.usage,
    options?: { cause?: unknown }
  ) {
    super(message, options);
    Object.setPrototypeOf(this, new.target.prototype);
  }
}
