import { CliError } from "./CliError.js";
import { EXIT_CODES } from "./exitCodes.js";

/**
 * A job read from stdin reached its `--max-runs` budget: the rows past it are never started.
 * It is the budget's own stop (exit code 2, "over --max-runs" in the exit-code table), never an
 * input that is wrong: the rows before it are as good as any.
 *
 * ## Example
 * ```ts
 * throw new RunBudgetError("stdin has more than 10 rows, more than --max-runs 10; …", 10);
 * ```
 */
export class RunBudgetError extends CliError {
  override name = "RunBudgetError" as const;

  /**
   * @param message what was over the budget, and the flag that allows it
   * @param maxRuns the `--max-runs` value
   */
  constructor(
    message: string,
    readonly maxRuns: number
  ) {
    super(message, EXIT_CODES.usage);
  }
}
