/**
 * Why the spending guard did not start a run: it waits for the user's decision in the task pane
 * (`threshold`, `dailyCap`, or `changingInputs`: the cell got more different inputs in 10 minutes
 * than the per-cell rule starts without asking), or the user blocked this workbook or, on a
 * question about it, this cell (`blocked`). The message says so
 * and where to decide; a cell shows it as `#N/A`.
 *
 * ## Example
 * ```ts
 * if (error instanceof SpendingGuardError && error.reason !== "blocked") showWaitingNotice();
 * ```
 */
export class SpendingGuardError extends Error {
  override name = "SpendingGuardError" as const;

  /**
   * @param reason Which rule held the run.
   * @param message What happened and where to decide.
   */
  constructor(
    readonly reason: "threshold" | "dailyCap" | "changingInputs" | "blocked",
    message: string
  ) {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype);
  }
}
