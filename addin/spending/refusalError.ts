import type { SpendingLimits, StartVerdict } from "../spendingPolicy.js";
import type { ChangingInputsLimits } from "../changingInputsPolicy.js";
import { SpendingGuardError } from "../SpendingGuardError.js";

const MINUTE_MS = 60_000;

/**
 * What a formula's cell says when the spending guard does not let its runs start: blocked, at the
 * daily cap, or beyond the threshold (a bulk names its runs).
 *
 * ## Example
 * ```ts
 * throw refusalError({ verdict: "wait", reason: "threshold" }, 1, limits, 120);
 * ```
 *
 * @param verdict The guard's verdict (not `start`).
 * @param runs The runs that would have started.
 * @param limits The limits in force (named in the message).
 * @param startedInWindow Runs the formulas started in the window (named in the message).
 * @return The error for the cell.
 */
export function refusalError(
  verdict: Exclude<StartVerdict, { verdict: "start" }>,
  runs: number,
  limits: SpendingLimits,
  startedInWindow: number
): SpendingGuardError {
  if (verdict.verdict === "block") {
    return new SpendingGuardError(
      "blocked",
      'Blocked: runs of this workbook were blocked in Spell Run (Home tab). Choose "Ask again" there to run them.'
    );
  }
  if (verdict.reason === "dailyCap") {
    return new SpendingGuardError(
      "dailyCap",
      `Waiting for your OK: this workbook reached its daily cap of ${limits.dailyRunCap} runs. Open Spell Run (Home tab) to allow these runs, or raise the cap in Settings.`
    );
  }
  const minutes = limits.windowMs / MINUTE_MS;
  if (runs > 1) {
    return new SpendingGuardError(
      "threshold",
      `Waiting for your OK: this bulk would start ${runs} runs, beyond the ${limits.runsBeforeAsking} runs in ${minutes} minutes this workbook starts without asking. Open Spell Run (Home tab) to allow or block the waiting runs.`
    );
  }
  return new SpendingGuardError(
    "threshold",
    `Waiting for your OK: this workbook started ${startedInWindow} runs in the last ${minutes} minutes (it starts ${limits.runsBeforeAsking} without asking). Open Spell Run (Home tab) to allow or block the waiting runs.`
  );
}

/**
 * What the task pane says when a bulk it would start passes the daily cap.
 *
 * ## Example
 * ```ts
 * throw paneCapError(500, limits, 800);
 * ```
 *
 * @param runs The runs the bulk would send.
 * @param limits The limits in force.
 * @param startedToday Runs the workbook started today.
 * @return The error (`dailyCap`).
 */
export function paneCapError(
  runs: number,
  limits: SpendingLimits,
  startedToday: number
): SpendingGuardError {
  return new SpendingGuardError(
    "dailyCap",
    `This bulk of ${runs} runs would pass today's cap of ${limits.dailyRunCap} runs for this workbook (${startedToday} started). Raise the daily cap in Settings to run it.`
  );
}

/**
 * What a `SPELL.RUN` cell says when the per-cell rule holds its run: it got more different inputs
 * in the window than the rule starts without asking (typed by its user, or a formula reading
 * `NOW()` or `RAND()`), and the pane asks. At most 250 characters (what a cell shows).
 *
 * ## Example
 * ```ts
 * throw changingInputsError(3, DEFAULT_CHANGING_INPUTS_LIMITS);
 * ```
 *
 * @param inputsInWindow Different inputs the cell started runs for in the window (this one is
 *   one more).
 * @param limits The rule's limits (named in the message).
 * @return The error (`changingInputs`).
 */
export function changingInputsError(
  inputsInWindow: number,
  limits: ChangingInputsLimits
): SpendingGuardError {
  const minutes = limits.windowMs / MINUTE_MS;
  return new SpendingGuardError(
    "changingInputs",
    `Waiting for your OK: this cell got ${inputsInWindow + 1} different inputs in ${minutes} minutes, each a new paid run (a formula reading NOW() or RAND() changes at every calculation). Open Spell Run (Home tab) to allow or block it.`
  );
}

/**
 * What a `SPELL.RUN` cell says when the user blocked it ("Block" on a question about cells whose
 * inputs kept changing): the rest of the workbook runs on.
 *
 * ## Example
 * ```ts
 * if (history.isBlocked(address)) throw cellBlockedError();
 * ```
 *
 * @return The error (`blocked`).
 */
export function cellBlockedError(): SpendingGuardError {
  return new SpendingGuardError(
    "blocked",
    'Blocked: this cell was blocked in Spell Run (Home tab); it starts no runs. Choose "Ask again" there to run it.'
  );
}
