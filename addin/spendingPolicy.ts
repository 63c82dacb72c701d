/**
 * What the user decided for one document's runs, asked by the spending guard.
 *
 * - `ask`: nothing decided yet; runs beyond the threshold wait for a decision.
 * - `allowWorkbook`: this document may start runs without the threshold (the daily cap holds).
 * - `block`: this document starts no run.
 *
 * ## Example
 * ```ts
 * const decision: SpendingDecision = "ask";
 * ```
 */
export type SpendingDecision = "ask" | "allowWorkbook" | "block";

/**
 * How many runs a document may start before its user is asked.
 *
 * ## Example
 * ```ts
 * const limits: SpendingLimits = { ...DEFAULT_SPENDING_LIMITS, dailyRunCap: 5000 };
 * ```
 */
export interface SpendingLimits {
  /** New runs within `windowMs` that start without asking. @default 100 */
  runsBeforeAsking: number;
  /** The counting window of `runsBeforeAsking`, in ms. @default 600_000 (10 minutes) */
  windowMs: number;
  /** Runs a day (local calendar day), counting the task pane's bulk runs too. @default 1000 */
  dailyRunCap: number;
}

/**
 * The guard's defaults. 100 new runs in 10 minutes is the cap Microsoft put on Excel's own
 * `COPILOT` function, so users of AI in Excel already know it; it lets a first screenful of rows
 * show what a spell does before the rest of a filled-down column is paid for. 1,000 a day bounds
 * what one forgotten workbook can cost while a normal day of work stays below it.
 *
 * ## Example
 * ```ts
 * judgeStart(emptyLedger(now), "ask", DEFAULT_SPENDING_LIMITS, now).verdict; // "start"
 * ```
 */
export const DEFAULT_SPENDING_LIMITS: Readonly<SpendingLimits> = Object.freeze({
  runsBeforeAsking: 100,
  windowMs: 10 * 60 * 1000,
  dailyRunCap: 1000,
});

/**
 * The runs a document started: those within the window (with their time) and the day's total.
 * Immutable: `recordStarts` returns a new ledger.
 *
 * ## Example
 * ```ts
 * let ledger = emptyLedger(Date.now());
 * ledger = recordStarts(ledger, Date.now(), 1, DEFAULT_SPENDING_LIMITS);
 * ```
 */
export interface SpendingLedger {
  /** Starts within the window, oldest first: when, and how many runs. */
  readonly recent: readonly { readonly at: number; readonly runs: number }[];
  /** The local day `startedToday` counts, as `YYYY-MM-DD`. */
  readonly day: string;
  /** Runs started on `day`. */
  readonly startedToday: number;
}

/**
 * What the guard says about starting some runs now.
 *
 * - `start`: go (then `recordStarts`).
 * - `wait`: ask the user first; `reason` says which limit was reached.
 * - `block`: the user blocked this document.
 *
 * ## Example
 * ```ts
 * if (verdict.verdict === "wait" && verdict.reason === "dailyCap") showCapNotice();
 * ```
 */
export type StartVerdict =
  | { readonly verdict: "start" }
  | { readonly verdict: "wait"; readonly reason: "threshold" | "dailyCap" }
  | { readonly verdict: "block" };

/**
 * A ledger with nothing started yet on the day of `now`.
 *
 * ## Example
 * ```ts
 * const ledger = emptyLedger(Date.now());
 * ```
 *
 * @param now The current time, ms since the epoch.
 * @return An empty ledger.
 */
export function emptyLedger(now: number): SpendingLedger {
  return { recent: [], day: localDay(now), startedToday: 0 };
}

/**
 * Decides whether `runs` new runs may start now. Pure: the same arguments give the same verdict.
 *
 * Rules, in order:
 * 1. a blocked document starts nothing;
 * 2. runs the user allowed one by one ("allow these") start, whatever the limits: that was the
 *    question the user answered;
 * 3. beyond the daily cap, runs wait (even in an allowed workbook: the cap is the user's last
 *    word on a day's spending);
 * 4. an allowed workbook starts without the threshold;
 * 5. beyond `runsBeforeAsking` runs in the window, runs wait.
 *
 * ## Example
 * ```ts
 * judgeStart(ledger, "ask", DEFAULT_SPENDING_LIMITS, Date.now(), 1); // { verdict: "start" }
 * ```
 *
 * @param ledger What the document started so far.
 * @param decision What the user decided for the document.
 * @param limits The threshold, its window and the daily cap.
 * @param now The current time, ms since the epoch.
 * @param runs How many runs would start (a bulk run counts each row).
 * @param allowedOneByOne Whether the user allowed exactly these runs.
 * @return The verdict.
 */
export function judgeStart(
  ledger: SpendingLedger,
  decision: SpendingDecision,
  limits: SpendingLimits,
  now: number,
  runs = 1,
  allowedOneByOne = false
): StartVerdict {
  if (decision === "block") return { verdict: "block" };
  if (allowedOneByOne) return { verdict: "start" };
  if (startedOn(ledger, now) + runs > limits.dailyRunCap) {
    return { verdict: "wait", reason: "dailyCap" };
  }
  if (decision === "allowWorkbook") return { verdict: "start" };
  if (startedInWindow(ledger, now, limits) + runs > limits.runsBeforeAsking) {
    return { verdict: "wait", reason: "threshold" };
  }
  return { verdict: "start" };
}

/**
 * The ledger after `runs` runs started at `now`: older starts leave the window, a new day starts
 * its count from zero.
 *
 * ## Example
 * ```ts
 * ledger = recordStarts(ledger, Date.now(), 1, limits);
 * ```
 *
 * @param ledger The ledger before.
 * @param now The current time, ms since the epoch.
 * @param runs How many runs started.
 * @param limits Gives the window's length.
 * @return The ledger after.
 */
export function recordStarts(
  ledger: SpendingLedger,
  now: number,
  runs: number,
  limits: SpendingLimits
): SpendingLedger {
  const day = localDay(now);
  const cutoff = now - limits.windowMs;
  // Starts come in time order: when the oldest is still in the window, so are the others (a
  // copy, not a filter over every entry, on each of a recalculation's thousands of starts).
  const first = ledger.recent[0];
  const recent =
    first && first.at <= cutoff
      ? ledger.recent.filter((start) => start.at > cutoff)
      : ledger.recent.slice();
  const last = recent.at(-1);
  // Starts of the same second share one entry, dated by the latest: each stays in the window at
  // least as long as it should (never less, at most a second more), and the ledger stays short.
  if (
    last &&
    now >= last.at &&
    Math.floor(now / MERGE_STARTS_WITHIN_MS) === Math.floor(last.at / MERGE_STARTS_WITHIN_MS)
  ) {
    recent[recent.length - 1] = { at: now, runs: last.runs + runs };
  } else recent.push({ at: now, runs });
  return { recent, day, startedToday: startedOn(ledger, now) + runs };
}

/**
 * Runs started within the window ending at `now`.
 *
 * ## Example
 * ```ts
 * startedInWindow(ledger, Date.now(), DEFAULT_SPENDING_LIMITS); // 37
 * ```
 *
 * @param ledger The ledger.
 * @param now The current time, ms since the epoch.
 * @param limits Gives the window's length.
 * @return The number of runs.
 */
export function startedInWindow(
  ledger: SpendingLedger,
  now: number,
  limits: SpendingLimits
): number {
  let runs = 0;
  for (const start of ledger.recent) if (start.at > now - limits.windowMs) runs += start.runs;
  return runs;
}

/** Runs started on the day of `now`: a ledger of an earlier day counts nothing. */
function startedOn(ledger: SpendingLedger, now: number): number {
  return ledger.day === localDay(now) ? ledger.startedToday : 0;
}

/** Starts within one such span (a second of the clock) are one entry of the ledger. */
const MERGE_STARTS_WITHIN_MS = 1000;

/** The last day `localDay` named, and its bounds: a recalculation asks thousands of times. */
let lastDay = { from: 0, to: 0, name: "" };

/** The local calendar day of `time` as `YYYY-MM-DD`: a user's "day" is the one on their clock. */
function localDay(time: number): string {
  if (time >= lastDay.from && time < lastDay.to) return lastDay.name;
  const date = new Date(time);
  const month = String(date.getMonth() + 1).padStart(2, "0");
  const day = String(date.getDate()).padStart(2, "0");
  const from = new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const to = new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime();
  lastDay = { from, to, name: `${date.getFullYear()}-${month}-${day}` };
  return lastDay.name;
}
