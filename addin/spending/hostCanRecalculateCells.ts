/**
 * Whether the host can recalculate single cells (`Range.calculate`, ExcelApi 1.6), so that the
 * task pane can make the spending guard's waiting cells run again. Where it cannot, a waiting
 * `SPELL.RUN` stays pending in the add-in's own queue instead of ending in `#N/A`, and the pane
 * calls it again after the user's answer (`SpendingGuard.reinvokeDecided`). Outside Office (Node
 * specs) and where Office does not say, it is taken to be able to.
 *
 * ## Example
 * ```ts
 * if (!hostCanRecalculateCells()) keepWaitingInQueue();
 * ```
 *
 * @return True when `Range.calculate` is there.
 */
export function hostCanRecalculateCells(): boolean {
  try {
    if (typeof Office === "undefined") return true;
    const requirements = (Office.context as { requirements?: Office.RequirementSetSupport })
      ?.requirements;
    return requirements?.isSetSupported?.("ExcelApi", "1.6") ?? true;
  } catch {
    return true;
  }
}
