/**
 * Asks before the page is left or reloaded while runs the page waits for are in flight: their
 * results would not reach the sheet until a Resume (or the cells' recalculation) collects them.
 * Nothing else asks: the document is saved as the page goes (savedDocument.ts), a run whose cell
 * was deleted or changed is waited for by nobody, and a cell waiting for the spending guard's OK
 * has started nothing (the guard asks again after the reload).
 *
 * @example
 * ```ts
 * warnBeforeLeaving(() => runtime.callsUnanswered());
 * ```
 * @param runsAwaited How many runs the page waits for now.
 * @returns A function that stops asking.
 */
export function warnBeforeLeaving(runsAwaited: () => number): () => void {
  const ask = (event: BeforeUnloadEvent) => {
    const runs = runsAwaited();
    if (runs === 0) return;
    event.preventDefault();
    // Older browsers show (or need) a returnValue; current ones show their own sentence.
    event.returnValue = `${runs} runs are in flight: their results wait for the next visit.`;
  };
  window.addEventListener("beforeunload", ask);
  return () => window.removeEventListener("beforeunload", ask);
}
