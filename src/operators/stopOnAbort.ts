// A file the client loads before its first call: rxjs from its own files, not from "rxjs" (see
// "The client's first load" in docs/development.md).
import { Observable } from "rxjs/internal/Observable";
import type { MonoTypeOperatorFunction } from "rxjs";
import { SpellError } from "../errors/SpellError.js";
import { onAbort } from "../util/onAbort.js";

/**
 * Stops the source when `signal` aborts, as an unsubscribe does (requests aborted, unfinished
 * bulk groups cancelled), then errors with the signal's reason. An already aborted signal
 * errors at once and subscribes nothing. Many calls may share one signal (see `onAbort`).
 *
 * ```
 * source:  ──a──b──────
 * signal:  ────────abort
 * result:  ──a──b──#        (# = signal.reason; the source is unsubscribed first)
 * ```
 *
 * ## Example
 * ```ts
 * client.bulk("echo", rows).pipe(stopOnAbort(AbortSignal.timeout(60_000))).subscribe(render);
 * ```
 * @param signal the caller's AbortSignal; undefined passes the source unchanged
 * @return an operator that ends the stream on abort
 */
export function stopOnAbort<T>(signal: AbortSignal | undefined): MonoTypeOperatorFunction<T> {
  if (!signal) return (source) => source;
  return (source) =>
    new Observable<T>((subscriber) => {
      if (signal.aborted) {
        subscriber.error(abortReason(signal));
        return undefined;
      }
      // An observer of its own, not `subscriber`: unsubscribing the source must leave the
      // subscriber open for the abort's error.
      const inner = source.subscribe({
        next: (value) => subscriber.next(value),
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      const stopListening = onAbort(signal, () => {
        inner.unsubscribe();
        subscriber.error(abortReason(signal));
      });
      return () => {
        stopListening();
        inner.unsubscribe();
      };
    });
}

/** What an aborted call fails with: the signal's reason, else a `SpellError`. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new SpellError("Aborted");
}
