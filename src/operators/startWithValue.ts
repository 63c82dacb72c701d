import { Observable, type MonoTypeOperatorFunction } from "rxjs";

/**
 * rxjs `startWith(value)` for one value: emits `value` on subscribing, then the source. Built on
 * the Observable constructor because rxjs's `startWith` goes through `concat` and `from`, whose
 * scheduling code (about 3 KB minified) a bundler then puts in every page's first load.
 *
 * ```
 * source:  ───a──b|
 * result:  v──a──b|     (startWithValue(v))
 * ```
 *
 * ## Example
 * ```ts
 * views$.pipe(startWithValue(pendingView(size, groupId)));
 * ```
 * @param value the first value
 * @return an operator emitting `value` before the source
 */
export function startWithValue<T>(value: T): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      subscriber.next(value);
      // A subscriber that left on the first value (take(1)) never subscribes the source.
      if (!subscriber.closed) return source.subscribe(subscriber);
      return undefined;
    });
}
