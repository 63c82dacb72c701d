import { CliError } from "./CliError.js";
import { EXIT_CODES } from "./exitCodes.js";

/**
 * The input file cannot be read or is malformed (exit code 3). The message names the file and,
 * when known, the line. `readingHint` is the part of the message that names a flag of `bulk`
 * (`--delimiter`, `--encoding`): `resume` and `retry`, which read the input as the job began and
 * take no such flag, replace it (see `readJobInput`).
 *
 * ## Example
 * ```ts
 * throw new InputError("rows.csv", 7, "3 cells for 2 header columns");
 * // rows.csv line 7: 3 cells for 2 header columns
 * ```
 */
export class InputError extends CliError {
  override name = "InputError" as const;
  /** The text after `detail` naming a reading flag of `bulk`, if any. */
  readonly readingHint?: string;

  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly detail: string,
    options?: { cause?: unknown; readingHint?: string }
  ) {
    super(
      `${file}${line === undefined ? "" : ` line ${line}`}: ${detail}${options?.readingHint ?? ""}`,
      EXIT_CODES.badInput,
      options
    );
    if (options?.readingHint !== undefined) this.readingHint = options.readingHint;
  }
}
