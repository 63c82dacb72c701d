import { Observable, type Subscription } from "rxjs";
import { countRunStates } from "../countRunStates.js";
import { SpellHttpError } from "../errors/SpellHttpError.js";
import { SpellRunError } from "../errors/SpellRunError.js";
import type { BulkRunEntry, BulkSnapshot, RunSnapshot } from "../types.js";
import type { BulkReuse } from "./BulkReuse.js";
import { startedRunKey, type StartedRun } from "./StartedRun.js";

/**
 * `reusedBulk` with started rows remembered: rows with a remembered success are answered from
 * the store; rows remembered as started (by an earlier bulk, before a reload) are watched again
 * through `reuse.resume`, never sent again; identical rows share one run; only the distinct rows
 * left go to `send` (so the `beforeStart` gate counts only them). Each row sent is remembered as
 * started (its group, row and the group's size, as `run` remembers a batched row) from the first
 * snapshot that names its group until its success is stored or it failed, for as long as a
 * success is remembered (`ttlMs`). A watched row the service no longer knows (a 404: expired)
 * shows its error and is forgotten, so the next calculation sends it anew.
 *
 * ```
 * rows:   [a, b, c]   remembered: a   started: b   →  send([c]), watch b
 * out:    P'──S'(b)──S'(c)──D'
 * ```
 *
 * ## Example
 * ```ts
 * followedBulk(reuse, rows, keys, remembered, started, (distinct) => sendChunks(distinct));
 * ```
 * @param reuse the store, TTL, key function and resume
 * @param inputsList one inputs object per row
 * @param keys the reuse key of each row
 * @param remembered each row's remembered outputs, if any
 * @param started each row's run remembered as started, if any
 * @param send runs the distinct rows neither remembered nor started (a cold bulk)
 * @return a cold Observable of snapshots over every row
 * @internal
 */
export function followedBulk(
  reuse: BulkReuse,
  inputsList: readonly Record<string, unknown>[],
  keys: readonly string[],
  remembered: readonly (Record<string, unknown> | undefined)[],
  started: readonly (StartedRun | undefined)[],
  send: (distinct: Record<string, unknown>[]) => Observable<BulkSnapshot>
): Observable<BulkSnapshot> {
  return new Observable<BulkSnapshot>((subscriber) => {
    const { store, ttlMs } = reuse;
    // Row → distinct run (-1: answered from the store); distinct run → its key, and how it runs.
    const distinctOf = new Array<number>(inputsList.length).fill(-1);
    const distinctKeys: string[] = [];
    const entries: BulkRunEntry[] = [];
    const watches: Observable<RunSnapshot>[] = [];
    const watchedIndex: number[] = [];
    const toSend: Record<string, unknown>[] = [];
    const sentIndex: number[] = [];
    /** Row → index among the runs sent (-1: answered or watched), for the resume token. */
    const sentRowOf = new Array<number>(inputsList.length).fill(-1);
    const byKey = new Map<string, number>();
    /** Distinct run → its index among the runs sent (-1: watched). */
    const sentOf: number[] = [];
    inputsList.forEach((inputs, row) => {
      if (remembered[row]) return;
      const key = keys[row];
      let index = byKey.get(key);
      if (index === undefined) {
        index = distinctKeys.length;
        byKey.set(key, index);
        distinctKeys.push(key);
        entries.push({ state: "pending", outputs: {} });
        const startedRow = started[row];
        let watch: Observable<RunSnapshot> | undefined;
        try {
          watch = startedRow && reuse.resume ? reuse.resume(startedRow) : undefined;
        } catch {
          watch = undefined;
        }
        if (watch) {
          watches.push(watch);
          watchedIndex.push(index);
          sentOf.push(-1);
        } else {
          sentOf.push(toSend.length);
          toSend.push(inputs);
          sentIndex.push(index);
        }
      }
      distinctOf[row] = index;
      sentRowOf[row] = sentOf[index];
    });

    // The writes of one run in order (its started record lands before its removal).
    const chains = new Map<number, Promise<void>>();
    const write = (index: number, change: () => Promise<void> | void): void => {
      const next = (chains.get(index) ?? Promise.resolve()).then(change).catch(() => undefined);
      chains.set(index, next);
    };
    const recorded = new Set<number>();
    const ended = new Set<number>();
    /** A run of the bulk ended: a success is remembered, then its started record forgotten. */
    const settle = (index: number, entry: BulkRunEntry): void => {
      if (ended.has(index)) return;
      if (entry.state === "success") {
        ended.add(index);
        const key = distinctKeys[index];
        write(index, async () => {
          await store.set(key, entry.outputs, ttlMs);
          await store.delete?.(startedRunKey(key));
        });
      } else if (entry.state === "failure" || entry.state === "error") {
        ended.add(index);
        write(index, () => store.delete?.(startedRunKey(distinctKeys[index])));
      }
    };

    let base: BulkSnapshot | undefined;
    let open = (toSend.length > 0 ? 1 : 0) + watches.length;
    const emit = (): void => {
      const runs = inputsList.map((_, row): BulkRunEntry =>
        distinctOf[row] < 0
          ? { state: "success", outputs: remembered[row] as Record<string, unknown> }
          : entries[distinctOf[row]]
      );
      const counts = countRunStates(runs);
      subscriber.next({
        groupId: base?.groupId ?? "",
        groupIds: base?.groupIds ?? [],
        runs,
        done: counts.pending === 0 && counts.inProgress === 0,
        total: runs.length,
        counts,
        resume: {
          ...(base?.resume ?? { spellId: "", groupIds: [], chunkSizes: [] }),
          // Every row sent as its own run, in order: the token needs no map of rows.
          ...(toSend.length === inputsList.length ? {} : { rows: sentRowOf }),
        },
      });
    };
    const closed = (): void => {
      if (--open === 0) subscriber.complete();
    };
    const subscriptions: Subscription[] = [];

    if (open === 0) {
      emit();
      subscriber.complete();
      return;
    }
    watches.forEach((watch, at) => {
      const index = watchedIndex[at];
      subscriptions.push(
        watch.subscribe({
          next: (snapshot) => {
            entries[index] = { state: snapshot.state, outputs: snapshot.outputs } as BulkRunEntry;
            settle(index, entries[index]);
            emit();
          },
          error: (error: unknown) => {
            // A run that failed, or a group the service no longer knows (expired), is forgotten;
            // any other error (the network) keeps the record for the next calculation to watch.
            const gone =
              error instanceof SpellRunError ||
              (error instanceof SpellHttpError && error.status === 404);
            if (gone) write(index, () => store.delete?.(startedRunKey(distinctKeys[index])));
            ended.add(index);
            entries[index] =
              error instanceof SpellRunError
                ? { state: error.state === "failure" ? "failure" : "error", outputs: error.outputs }
                : { state: "error", outputs: { error: errorText(error) } };
            emit();
            closed();
          },
          complete: closed,
        })
      );
    });
    if (toSend.length > 0) {
      subscriptions.push(
        send(toSend).subscribe({
          next: (snapshot) => {
            base = snapshot;
            let first = 0;
            snapshot.resume.chunkSizes.forEach((size, chunk) => {
              const groupId = snapshot.resume.groupIds[chunk];
              for (let row = 0; row < size; row++) {
                const index = sentIndex[first + row];
                const entry = snapshot.runs[first + row];
                if (entry) entries[index] = entry;
                // Remembered as started once its group is named, until it ends.
                if (groupId && !recorded.has(index) && !ended.has(index)) {
                  recorded.add(index);
                  const startedRow: StartedRun = {
                    spellId: snapshot.resume.spellId,
                    groupId,
                    row,
                    size,
                  };
                  const key = startedRunKey(distinctKeys[index]);
                  write(index, () => store.set(key, { startedRun: startedRow }, ttlMs));
                }
                if (entry) settle(index, entry);
              }
              first += size;
            });
            emit();
          },
          error: (error: unknown) => subscriber.error(error),
          complete: closed,
        })
      );
    }
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
