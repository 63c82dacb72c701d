import { CliError } from "./CliError.js";
import { EXIT_CODES } from "./exitCodes.js";

/**
 * A command line that cannot be run as given (exit code 2): a bad option value, no API key, a
 * journal in the way.
 *
 * ## Example
 * ```ts
 * throw new UsageError("--chunk-size must be a whole number of at least 1");
 * ```
 */
export class UsageError extends CliError {
  override name = "UsageError" as const;

  constructor(message: string) {
    super(message, EXIT_CODES.usage);
  }
}
