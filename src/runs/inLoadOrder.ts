import { concatMap, defer, from, throwError, type Observable } from "rxjs";
import type { LazyModule } from "../util/lazyModule.js";

/**
 * Where a client notes the module load its calls wait behind (its settings, later its parts:
 * one object, so calls made before and after the core loaded share it).
 *
 * ## Example
 * ```ts
 * const order: LoadOrder = {};
 * withModule(order, bulkModule, ({ clientBulk }) => clientBulk(parts, "echo", rows, {}));
 * ```
 * @internal
 */
export interface LoadOrder {
  /**
   * Set while a call waits for a module loaded on first use: calls subscribed meanwhile wait
   * for it, so every call keeps its place (see `inLoadOrder`).
   */
  loading?: Promise<void>;
}

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
 * @param parts the client's load order (its settings or parts)
 * @param work the call's work
 * @return the work, started after the loads that were under way when it was subscribed
 * @internal
 */
export function inLoadOrder<T>(parts: LoadOrder, work: () => Observable<T>): Observable<T> {
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
 * @param parts the client's load order (its settings or parts)
 * @param lazy the module
 * @param use the call's work with the module
 * @return the work, started once the module is there
 * @internal
 */
export function withModule<M, T>(
  parts: LoadOrder,
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
