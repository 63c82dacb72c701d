/**
 * How many runs with different inputs one `SPELL.RUN` cell may start before its user is asked.
 *
 * ## Example
 * ```ts
 * const limits: ChangingInputsLimits = { ...DEFAULT_CHANGING_INPUTS_LIMITS, inputsBeforeAsking: 5 };
 * ```
 */
export interface ChangingInputsLimits {
  /** Different inputs a cell starts runs for within `windowMs` without asking. @default 3 */
  inputsBeforeAsking: number;
  /** The counting window of `inputsBeforeAsking`, in ms. @default 600_000 (10 minutes) */
  windowMs: number;
}

/**
 * The per-cell rule's defaults: a cell starts runs for 3 different inputs in 10 minutes without
 * asking, and asks before the 4th. An edit changes a cell's inputs once per user action, so the
 * formula as typed and two variants tried after it run at once; a cell reading `NOW()` or
 * `RAND()` gets new inputs at every calculation (every edit anywhere in the workbook), reaches
 * the 4th within minutes and then pays at most 3 runs in 10 minutes until its user answers,
 * where the workbook's threshold let it pay 100. A third variant tried within the 10 minutes asks
 * too: the price of catching a volatile input by its 4th run; one click, "Allow these cells",
 * lets that cell change its inputs freely from then on.
 *
 * ## Example
 * ```ts
 * judgeCellInputs([], hashText(runKey), Date.now(), DEFAULT_CHANGING_INPUTS_LIMITS); // "start"
 * ```
 */
export const DEFAULT_CHANGING_INPUTS_LIMITS: Readonly<ChangingInputsLimits> = Object.freeze({
  inputsBeforeAsking: 3,
  windowMs: 10 * 60 * 1000,
});

/**
 * The runs one cell started, newest last: when, and a fingerprint of the inputs (the run key's
 * hash), one entry per input (a repeated input keeps its latest start). Immutable.
 *
 * ## Example
 * ```ts
 * const starts: CellStarts = [{ at: Date.now(), input: hashText(runKey) }];
 * ```
 */
export type CellStarts = readonly { readonly at: number; readonly input: number }[];

/**
 * Decides whether a cell may start a run for `input` now. Pure. A run for an input the cell
 * started within the window is no change of its inputs (a failed run calculated again, a result
 * too large to remember) and starts; a new input starts while the cell's different inputs in
 * the window, this one included, stay within `inputsBeforeAsking`.
 *
 * ## Example
 * ```ts
 * if (judgeCellInputs(starts, input, now, limits) === "wait") askTheUser();
 * ```
 *
 * @param starts What the cell started before (`recordCellStart`).
 * @param input The fingerprint of the inputs of the run that would start.
 * @param now The current time, ms since the epoch.
 * @param limits How many different inputs, in which window.
 * @return `start`, or `wait` for the user's answer.
 */
export function judgeCellInputs(
  starts: CellStarts,
  input: number,
  now: number,
  limits: ChangingInputsLimits
): "start" | "wait" {
  const recent = withinWindow(starts, now, limits);
  if (recent.some((start) => start.input === input)) return "start";
  return recent.length + 1 > limits.inputsBeforeAsking ? "wait" : "start";
}

/**
 * The cell's starts after a run for `input` started at `now`: older starts leave the window, an
 * input started again keeps only its latest start, and at most `MAX_CELL_STARTS` stay (the
 * newest, enough for any threshold a user sets).
 *
 * ## Example
 * ```ts
 * starts = recordCellStart(starts, input, Date.now(), limits);
 * ```
 *
 * @param starts The cell's starts before.
 * @param input The fingerprint of the run's inputs.
 * @param now The current time, ms since the epoch.
 * @param limits Gives the window's length.
 * @return The cell's starts after.
 */
export function recordCellStart(
  starts: CellStarts,
  input: number,
  now: number,
  limits: ChangingInputsLimits
): CellStarts {
  // A filled-down column's first starts: one small array each, nothing to filter.
  if (starts.length === 0) return [{ at: now, input }];
  const kept = withinWindow(starts, now, limits).filter((start) => start.input !== input);
  return [...kept, { at: now, input }].slice(-MAX_CELL_STARTS);
}

/**
 * The cell's starts without the latest of `input` (a start the service surely refused started
 * nothing, so it is no change of the cell's inputs).
 *
 * ## Example
 * ```ts
 * starts = forgetCellStart(starts, input);
 * ```
 *
 * @param starts The cell's starts.
 * @param input The fingerprint of the refused run's inputs.
 * @return The cell's starts without it.
 */
export function forgetCellStart(starts: CellStarts, input: number): CellStarts {
  return starts.filter((start) => start.input !== input);
}

/**
 * The starts within the window ending at `now`.
 *
 * ## Example
 * ```ts
 * withinWindow(starts, Date.now(), DEFAULT_CHANGING_INPUTS_LIMITS).length; // 2
 * ```
 *
 * @param starts A cell's starts.
 * @param now The current time, ms since the epoch.
 * @param limits Gives the window's length.
 * @return Those within the window.
 */
export function withinWindow(
  starts: CellStarts,
  now: number,
  limits: ChangingInputsLimits
): CellStarts {
  const cutoff = now - limits.windowMs;
  return starts.every((start) => start.at > cutoff)
    ? starts
    : starts.filter((start) => start.at > cutoff);
}

/** A cell's starts kept at most: one more than any sensible threshold needs. */
export const MAX_CELL_STARTS = 16;
