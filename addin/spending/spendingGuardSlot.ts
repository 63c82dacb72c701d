import { runtimeSingleton } from "../runtimeSingleton.js";
import type { SpendingGuard } from "./SpendingGuard.js";

/**
 * Where the runtime keeps its spending guard (`addin/spendingGuard.ts` loads it into the slot).
 * Apart from the guard's module, so that functions.js can answer "is the guard loaded?" without
 * carrying the guard's code at start: the gate loads that module on the first start.
 *
 * ## Example
 * ```ts
 * const state = spendingGuardSlot();
 * state.guard ??= loadGuard(state);
 * ```
 * @return The realm's one slot.
 */
export function spendingGuardSlot(): SpendingGuardSlot {
  return runtimeSingleton("spendingGuard", () => ({}));
}

/** The guard of the open document, while it loads and once loaded. */
export interface SpendingGuardSlot {
  guard?: Promise<SpendingGuard>;
  ready?: SpendingGuard;
  stopListening?: () => void;
  documentUrl?: string;
  documentId?: string;
}

/**
 * The guard when it is already loaded (no await on a filled-down column's hot path).
 *
 * ## Example
 * ```ts
 * const guard = spendingGuardIfReady();
 * ```
 * @return The loaded guard, or `undefined`.
 */
export function spendingGuardIfReady(): SpendingGuard | undefined {
  return spendingGuardSlot().ready;
}
