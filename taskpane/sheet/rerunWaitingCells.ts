import { hostCanRecalculateCells } from "../../addin/spending/hostCanRecalculateCells.js";
import { recalculateCells } from "./recalculateCells.js";

/**
 * Makes the spending guard's waiting cells run again after the user's answer, on every host:
 * recalculated (only those cells) where the host can, else called again from the add-in's own
 * queue (`reinvokeDecided`: the waiting `SPELL.RUN` calls kept pending there, and the
 * `SPELL.BULK` streams). When recalculating fails, the queue is used too, and the error says in
 * the user's words what to do with the cells still waiting.
 *
 * ## Example
 * ```ts
 * await rerunWaitingCells(await guard.decide("allowThese"), guard);
 * ```
 *
 * @param addresses The waiting cells (`decide`'s answer).
 * @param guard The guard that answered (its queue).
 * @param recalculate Recalculates cells (specs pass their own).
 * @throws Error with a message for the user when the cells could not be recalculated.
 */
export async function rerunWaitingCells(
  addresses: readonly string[],
  guard: { reinvokeDecided(): number },
  recalculate: (addresses: readonly string[]) => Promise<void> = recalculateCells
): Promise<void> {
  if (!hostCanRecalculateCells()) {
    guard.reinvokeDecided();
    return;
  }
  try {
    await recalculate(addresses);
  } catch {
    guard.reinvokeDecided();
    const cells = addresses.length === 1 ? addresses[0] : `${addresses.length} cells`;
    throw new Error(
      `Excel could not recalculate the waiting cells (${cells}). Select them and press F2, then Enter, to run them.`
    );
  }
}
