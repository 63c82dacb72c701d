/**
 * Asks before the page is left or reloaded while runs are in flight: the results would never
 * reach the sheet until a Resume (or the cells' recalculation) collects them.
 *
 * @example
 * ```ts
 * warnBeforeLeaving(() => emulator.store.inFlight());
 * ```
 * @param runsInFlight How many runs are in flight now.
 * @returns A function that stops asking.
 */
export function warnBeforeLeaving(runsInFlight: () => number): () => void {
  const ask = (event: BeforeUnloadEvent) => {
    if (runsInFlight() === 0) return;
    event.preventDefault();
    // Older browsers show (or need) a returnValue; current ones show their own sentence.
    event.returnValue = `${runsInFlight()} runs are in flight: their results wait for the next visit.`;
  };
  window.addEventListener("beforeunload", ask);
  return () => window.removeEventListener("beforeunload", ask);
}
