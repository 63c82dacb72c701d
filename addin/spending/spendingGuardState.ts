import type { SpendingDecision, SpendingLimits } from "../spendingPolicy.js";

/**
 * What the task pane shows of the guard: the document's decision, and the runs waiting for one.
 *
 * ## Example
 * ```ts
 * guard.state$.subscribe(({ waitingRuns, spells }) => render(waitingRuns, spells));
 * ```
 */
export interface SpendingGuardState {
  decision: SpendingDecision;
  /** Distinct runs waiting (identical cells share one; a waiting `SPELL.BULK` counts its runs). */
  waitingRuns: number;
  /** The waiting runs per spell, most first. */
  spells: { spellId: string; runs: number }[];
  /** The rule that made the latest of them wait. */
  reason: "threshold" | "dailyCap" | undefined;
  limits: SpendingLimits;
  /** Runs this document started today. */
  startedToday: number;
  /** Runs this document's formulas started in the threshold's window (`limits.windowMs`). */
  startedInWindow: number;
}

/**
 * An answer of the user in the task pane: allow the waiting runs once, allow this workbook from
 * now on, block it, or go back to asking.
 *
 * ## Example
 * ```ts
 * const addresses = await guard.decide("allowThese");
 * ```
 */
export type SpendingChoice = "allowThese" | SpendingDecision;
