import { defer, type Observable } from "rxjs";

/**
 * rxjs `of(value)` for one value: a cold Observable emitting `value` and completing. `defer`
 * over a one-element array, because rxjs's `of` goes through `from`, whose scheduling code
 * (about 3 KB minified) a bundler then puts in every page's first load.
 *
 * ```
 * just(v):  (v|)
 * ```
 *
 * ## Example
 * ```ts
 * just(groupId).pipe(switchMap((id) => api.cancelBulk(id)));
 * ```
 * @param value the value
 * @return a cold Observable of that one value
 */
export function just<T>(value: T): Observable<T> {
  return defer(() => [value]);
}
