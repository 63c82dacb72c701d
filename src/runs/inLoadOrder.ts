import { concatMap, defer, from, throwError, type Observable } from "rxjs";
import type { ClientParts } from "./ClientParts.js";
import type { LazyModule } from "../util/lazyModule.js";

/**
 * Work of a client's call that must keep its place behind calls still loading a module: calls
 * take request and run slots in the order they were subscribed, even when an earlier one (the
 * first `bulk`) waited for its module. Nothing is loading (the usual case): the work starts at
 * once.
 *
 * ## Example
 * ```ts
 * inLoadOrder(parts, () => parts.limiter.schedule(run$));
 * ```
 * @param parts the client's parts
 * @param work the call's work
 * @return the work, started after the loads that were under way when it was subscribed
 * @internal
 */
export function inLoadOrder<T>(parts: ClientParts, work: () => Observable<T>): Observable<T> {
  return defer(() => {
    const turn = parts.loading;
    return turn ? from(turn).pipe(concatMap(work)) : work();
  });
}

/**
 * Work that needs a module loaded on first use (`lazyModule`), in its place among the client's
 * calls (see `inLoadOrder`). Once the module has loaded, the work starts synchronously on
 * subscribe, so a `TestScheduler` drives it like any other code. A failed load errors this call
 * only; the next call tries again.
 *
 * ## Example
 * ```ts
 * withModule(parts, bulkModule, ({ clientBulk }) => clientBulk(parts, "echo", rows, {}));
 * ```
 * @param parts the client's parts
 * @param lazy the module
 * @param use the call's work with the module
 * @return the work, started once the module is there
 * @internal
 */
export function withModule<M, T>(
  parts: ClientParts,
  lazy: LazyModule<M>,
  use: (module: M) => Observable<T>
): Observable<T> {
  return defer(() => {
    const loaded = lazy.module;
    if (loaded !== undefined) return inLoadOrder(parts, () => use(loaded));
    let failure: unknown;
    const ready = lazy.load().then(
      () => undefined,
      (error: unknown) => void (failure = error)
    );
    // Calls subscribed from now on wait for this load too (and for the ones before it).
    const turn = (parts.loading ?? Promise.resolve()).then(() => ready);
    parts.loading = turn;
    void turn.then(() => {
      if (parts.loading === turn) parts.loading = undefined;
    });
    return from(turn).pipe(
      concatMap(() => (lazy.module === undefined ? throwError(() => failure) : use(lazy.module)))
    );
  });
}
