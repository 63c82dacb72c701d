/** What `handOnSlotsAfter` resumes: a limiter whose freed slots were held back. */
interface SlotHolder {
  startQueued(): void;
}

// While above 0, freed slots are not handed on yet (see `handOnSlotsAfter`).
let holdDepth = 0;
const holdersToResume = new Set<SlotHolder>();

/**
 * Runs `work` (which unsubscribes many callers at once, e.g. on one `AbortSignal`) and hands the
 * slots it frees to queued work only afterwards. Otherwise each freed slot would start the next
 * queued run, which sends its request before its own unsubscribe comes a moment later.
 *
 * ## Example
 * ```ts
 * handOnSlotsAfter(() => subscriptions.forEach((subscription) => subscription.unsubscribe()));
 * ```
 * @param work what frees the slots
 * @internal
 */
export function handOnSlotsAfter(work: () => void): void {
  holdDepth++;
  try {
    work();
  } finally {
    holdDepth--;
    if (holdDepth === 0) {
      const holders = [...holdersToResume];
      holdersToResume.clear();
      for (const holder of holders) holder.startQueued();
    }
  }
}

/**
 * Whether freed slots are held back now (inside `handOnSlotsAfter`): then `holder` is noted and
 * its `startQueued` called once the outermost `handOnSlotsAfter` has finished.
 *
 * ## Example
 * ```ts
 * startQueued(): void {
 *   if (heldUntilHandOn(this)) return;
 *   // hand the free slots on
 * }
 * ```
 * @param holder the limiter about to hand its free slots on
 * @return true when it must not hand them on yet
 * @internal
 */
export function heldUntilHandOn(holder: SlotHolder): boolean {
  if (holdDepth === 0) return false;
  holdersToResume.add(holder);
  return true;
}
