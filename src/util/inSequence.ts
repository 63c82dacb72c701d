import { concatAll, defer, type Observable } from "rxjs";

/**
 * rxjs `concat(...sources)`: each source subscribed when the one before it completed, their
 * values in order. Built from `defer` and `concatAll`, because rxjs's `concat` goes through
 * `from`, whose scheduling code (about 3 KB minified) a bundler then puts in every page's first
 * load.
 *
 * ```
 * a:       ──a|
 * b:          ──b|
 * result:  ──a──b|     (inSequence(a, b))
 * ```
 *
 * ## Example
 * ```ts
 * inSequence(previousStarted.pipe(ignoreElements()), bulkStart$);
 * ```
 * @param sources the streams, in order
 * @return a cold Observable of their values, one source after the other
 */
export function inSequence<T>(...sources: Observable<T>[]): Observable<T> {
  return defer(() => sources).pipe(concatAll());
}
