import { handOnSlotsAfter } from "./handOnSlotsAfter.js";

// One "abort" listener per signal, whatever the number of calls sharing it.
const listenersBySignal = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` when `signal` aborts. However many calls share one signal (2,000
 * `runOutputs` with one `AbortController`), the signal gets a single event listener, so Node
 * never warns about a listener leak; and the calls are all ended before any freed limiter slot
 * starts queued work, so nothing is sent after the abort.
 *
 * ```
 * signal:     ─────────abort
 * listeners:  a, b, c  ──▶  a(), b(), c()   then queued work may start (none is left)
 * ```
 *
 * ## Example
 * ```ts
 * const stopListening = onAbort(signal, () => subscription.unsubscribe());
 * // when the work ends first:
 * stopListening();
 * ```
 * @param signal the caller's AbortSignal
 * @param listener called once on abort
 * @return removes the listener
 * @internal
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let listeners = listenersBySignal.get(signal);
  if (!listeners) {
    const shared = new Set<() => void>();
    listeners = shared;
    listenersBySignal.set(signal, shared);
    signal.addEventListener(
      "abort",
      () => {
        listenersBySignal.delete(signal);
        handOnSlotsAfter(() => {
          for (const each of [...shared]) each();
        });
      },
      { once: true }
    );
  }
  const mine = listeners;
  mine.add(listener);
  return () => {
    mine.delete(listener);
  };
}
