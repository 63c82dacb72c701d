import { CliError } from "./CliError.js";
import { EXIT_CODES } from "./exitCodes.js";

/**
 * The input file cannot be read or is malformed (exit code 3). The message names the file and,
 * when known, the line.
 *
 * ## Example
 * ```ts
 * throw new InputError("rows.csv", 7, "3 cells for 2 header columns");
 * // rows.csv line 7: 3 cells for 2 header columns
 * ```
 */
export class InputError extends CliError {
  override name = "InputError" as const;

  constructor(
    readonly file: string,
    readonly line: number | undefined,
    detail: string,
    options?: { cause?: unknown }
  ) {
    super(
      `${file}${line === undefined ? "" : ` line ${line}`}: ${detail}`,
      EXIT_CODES.badInput,
      options
    );
  }
}
