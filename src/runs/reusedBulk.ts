import { catchError, defer, from, map, mergeMap, of, tap, type Observable } from "rxjs";
import { countRunStates } from "../countRunStates.js";
import type { BulkRunEntry, BulkSnapshot, ResultStore } from "../types.js";
import type { BulkReuse } from "./BulkReuse.js";
import { followedBulk } from "./followedBulk.js";
import { startedRunKey, startedRunOf, type StartedRun } from "./StartedRun.js";

/**
 * `bulk` with result reuse (`client.bulk(id, rows, { reuse: true })`): rows whose success is
 * remembered are `success` from the first snapshot and sent nowhere; identical rows are sent
 * once and share that run's entry; only the distinct rows left go to `send`. Each success is
 * remembered (once per distinct row) as it arrives. The snapshots still have one entry per row
 * of `inputsList`, counts and `total` over all of them; `groupIds` and `resume` describe the
 * runs sent (the token's `chunkSizes` add up to the rows sent, not to `inputsList.length`).
 * A broken store loses the reuse, never the bulk.
 *
 * ```
 * rows:  [a, b, a, c]   remembered: b   →  send([a, c])
 * sent:  P────S(a)────D
 * out:   P'───S'──────D'                  (P': b success, a/a pending, c pending)
 * ```
 *
 * ## Example
 * ```ts
 * reusedBulk(reuse, rows, (distinct) => bulkSnapshots(context, "echo", chunksOf(distinct)));
 * ```
 * @param reuse the store, TTL and key function
 * @param inputsList one inputs object per row
 * @param send runs the distinct rows not remembered (a cold bulk)
 * @return a cold Observable of snapshots over every row
 * @internal
 */
export function reusedBulk(
  reuse: BulkReuse,
  inputsList: readonly Record<string, unknown>[],
  send: (distinct: Record<string, unknown>[]) => Observable<BulkSnapshot>
): Observable<BulkSnapshot> {
  return defer(() => {
    const keys = inputsList.map((inputs) => reuse.keyOf(inputs));
    const remembered$ = from(
      Promise.all(
        keys.map((key) =>
          Promise.resolve()
            .then(() => reuse.store.get(key))
            .catch(() => undefined)
        )
      )
    ).pipe(catchError(() => of(keys.map(() => undefined))));
    const follows = reuse.resume !== undefined && reuse.store.delete !== undefined;
    return remembered$.pipe(
      mergeMap((remembered) =>
        follows
          ? from(startedRowsOf(reuse.store, keys, remembered)).pipe(
              mergeMap((started) =>
                followedBulk(reuse, inputsList, keys, remembered, started, send)
              )
            )
          : plainReusedBulk(reuse, inputsList, keys, remembered, send)
      )
    );
  });
}

/** The runs remembered as started for the rows without a result; a broken store knows none. */
async function startedRowsOf(
  store: ResultStore,
  keys: readonly string[],
  remembered: readonly (Record<string, unknown> | undefined)[]
): Promise<(StartedRun | undefined)[]> {
  return Promise.all(
    keys.map((key, row) =>
      remembered[row]
        ? undefined
        : Promise.resolve()
            .then(() => store.get(startedRunKey(key)))
            .then(startedRunOf, () => undefined)
    )
  );
}

/** `reusedBulk` where no started row is remembered (a store that cannot forget, or no resume). */
function plainReusedBulk(
  reuse: BulkReuse,
  inputsList: readonly Record<string, unknown>[],
  keys: readonly string[],
  remembered: readonly (Record<string, unknown> | undefined)[],
  send: (distinct: Record<string, unknown>[]) => Observable<BulkSnapshot>
): Observable<BulkSnapshot> {
  return defer(() => {
    // Row → index in the sent list (-1: answered from the store).
    const sentIndexOf = new Array<number>(inputsList.length).fill(-1);
    const distinct: Record<string, unknown>[] = [];
    const distinctKeys: string[] = [];
    const indexByKey = new Map<string, number>();
    inputsList.forEach((inputs, row) => {
      if (remembered[row]) return;
      let index = indexByKey.get(keys[row]);
      if (index === undefined) {
        index = distinct.length;
        indexByKey.set(keys[row], index);
        distinct.push(inputs);
        distinctKeys.push(keys[row]);
      }
      sentIndexOf[row] = index;
    });
    const stored = new Set<number>();
    const sent$ = send(distinct).pipe(
      tap((snapshot) =>
        snapshot.runs.forEach((run, index) => {
          if (run.state !== "success" || stored.has(index)) return;
          stored.add(index);
          Promise.resolve()
            .then(() => reuse.store.set(distinctKeys[index], run.outputs, reuse.ttlMs))
            .catch(() => undefined);
        })
      )
    );
    // Every row sent as its own run, in order: the token needs no map of rows.
    const rowsMap = distinct.length === inputsList.length ? undefined : sentIndexOf;
    return sent$.pipe(
      map((snapshot) =>
        spreadSentRuns(
          snapshot,
          sentIndexOf,
          (row) => ({
            state: "success",
            outputs: remembered[row] as Record<string, unknown>,
          }),
          rowsMap
        )
      )
    );
  });
}

/**
 * A snapshot of the runs sent, spread over every row: row `r` gets run `sentIndexOf[r]`, or
 * `notSent(r)` when that is -1. `total` and `counts` are over the rows; the resume token carries
 * `rows` (the map) when given.
 *
 * ## Example
 * ```ts
 * spreadSentRuns(snapshot, [0, 0, -1], () => ({ state: "success", outputs: {} }), [0, 0, -1]);
 * ```
 * @internal
 */
export function spreadSentRuns(
  snapshot: BulkSnapshot,
  sentIndexOf: readonly number[],
  notSent: (row: number) => BulkRunEntry,
  rows?: number[]
): BulkSnapshot {
  const runs = sentIndexOf.map((index, row) => (index < 0 ? notSent(row) : snapshot.runs[index]));
  return {
    ...snapshot,
    runs,
    total: runs.length,
    counts: countRunStates(runs),
    ...(rows ? { resume: { ...snapshot.resume, rows } } : {}),
  };
}

/**
 * What `resumeBulk` shows for a row the bulk answered from remembered results when it started:
 * its outputs are not in the token.
 *
 * @internal
 */
export const NOT_IN_TOKEN: BulkRunEntry = {
  state: "error",
  outputs: {
    error:
      "Answered from remembered results when the bulk started; its outputs are not in the resume token. Run it again (answered from the store at no cost while remembered).",
  },
};
