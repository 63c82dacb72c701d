import {
  catchError,
  defer,
  finalize,
  mergeMap,
  type Observable,
  of,
  ReplaySubject,
  share,
  tap,
} from "rxjs";
import type { ResultStore, RunSnapshot } from "../types.js";

/** Where a reused run remembers its success, asked when a shared run starts. */
export interface SharedRunStore {
  /** The store of results. */
  store: ResultStore;
  /** How long a success is remembered. */
  ttlMs: number;
}

/**
 * One run per reuse key: a subscription while a run of that key is in flight shares it (with its
 * latest snapshot first); otherwise the store is asked once, and a remembered success answers
 * without sending; else `fresh` is sent and its success stored. A broken store only loses the
 * reuse. The shared run is cancelled when its last subscriber leaves.
 *
 * ## Example
 * ```ts
 * sharedRun(inFlight, key, () => ({ store, ttlMs }), () => send());
 * ```
 * @param inFlight the runs in flight by key (updated here)
 * @param key the run's reuse key
 * @param reuse the store and its TTL, asked only when a shared run is built
 * @param fresh sends the run
 * @return a cold Observable of snapshots
 */
export function sharedRun(
  inFlight: Map<string, Observable<RunSnapshot>>,
  key: string,
  reuse: () => SharedRunStore,
  fresh: () => Observable<RunSnapshot>
): Observable<RunSnapshot> {
  return defer(() => {
    const existing = inFlight.get(key);
    if (existing) return existing;
    const { store, ttlMs } = reuse();
    // The store may be async (and may throw): ask it once per shared run, when it starts.
    const shared$: Observable<RunSnapshot> = defer(() =>
      Promise.resolve().then(() => store.get(key))
    ).pipe(
      // A broken store must not break the run; it only loses the reuse.
      catchError(() => of(undefined)),
      mergeMap((outputs) =>
        outputs
          ? of<RunSnapshot>({ state: "success", outputs })
          : fresh().pipe(
              tap((snapshot) => {
                if (snapshot.state === "success") {
                  Promise.resolve()
                    .then(() => store.set(key, snapshot.outputs, ttlMs))
                    .catch(() => undefined);
                }
              })
            )
      ),
      finalize(() => {
        if (inFlight.get(key) === shared$) inFlight.delete(key);
      }),
      share({
        connector: () => new ReplaySubject<RunSnapshot>(1),
        resetOnError: true,
        resetOnComplete: true,
        resetOnRefCountZero: true,
      })
    );
    inFlight.set(key, shared$);
    return shared$;
  });
}
