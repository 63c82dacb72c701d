import type { SpendingLedger } from "../spendingPolicy.js";

/**
 * The ledger with runs given back whose start the service surely refused: the day's count, and
 * for a formula's runs the latest starts of the 10-minute window too. Nothing goes below zero; a
 * ledger of another day is returned unchanged.
 *
 * ## Example
 * ```ts
 * ledger = refundStarts(ledger, 3, "pane", emptyLedger(Date.now()).day);
 * ```
 *
 * @param ledger The ledger.
 * @param runs The runs counted for the refused start.
 * @param by Who was charged: a formula's runs leave the 10-minute window too.
 * @param today Today's day, as the ledger writes it.
 * @return The new ledger.
 */
export function refundStarts(
  ledger: SpendingLedger,
  runs: number,
  by: "formulas" | "pane",
  today: SpendingLedger["day"]
): SpendingLedger {
  if (runs <= 0 || ledger.day !== today) return ledger;
  let left = by === "formulas" ? runs : 0;
  const recent = [...ledger.recent];
  for (let index = recent.length - 1; index >= 0 && left > 0; index--) {
    const taken = Math.min(left, recent[index].runs);
    left -= taken;
    if (taken === recent[index].runs) recent.splice(index, 1);
    else recent[index] = { at: recent[index].at, runs: recent[index].runs - taken };
  }
  return { recent, day: today, startedToday: Math.max(0, ledger.startedToday - runs) };
}
