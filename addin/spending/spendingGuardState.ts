import type { SpendingDecision, SpendingLimits } from "../spendingPolicy.js";
import type { ChangingInputsLimits } from "../changingInputsPolicy.js";

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
  reason: "threshold" | "dailyCap" | "changingInputs" | undefined;
  limits: SpendingLimits;
  /**
   * The waiting cells the per-cell rule holds (their inputs changed at each calculation), by
   * address; the others wait for the workbook's limits.
   */
  changingCells: string[];
  /** The cells allowed to start runs whatever their inputs ("Allow these cells"), by address. */
  allowedCells: string[];
  /**
   * The cells blocked by "Block" on a question about them only (the rest of the workbook runs
   * on), by address, until "Ask again".
   */
  blockedCells: string[];
  /** The per-cell rule's limits (the question names them). */
  changingInputsLimits: ChangingInputsLimits;
  /** Runs this document started today. */
  startedToday: number;
  /** Runs this document's formulas started in the threshold's window (`limits.windowMs`). */
  startedInWindow: number;
}

/**
 * An answer of the user in the task pane: allow the waiting runs once, allow the waiting cells
 * whose inputs keep changing from now on (`allowCells`), end the block of the cells blocked on
 * their own, the allowed cells staying allowed (`unblockCells`), allow this workbook from now on, block
 * it, or go back to asking.
 *
 * ## Example
 * ```ts
 * const addresses = await guard.decide("allowThese");
 * ```
 */
export type SpendingChoice = "allowThese" | "allowCells" | "unblockCells" | SpendingDecision;
