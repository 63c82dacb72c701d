import type { Observable } from "rxjs";
import { TERMINAL_STATES, type RunState } from "../RunState.js";
import type { BulkRow, BulkSnapshot } from "../types.js";

/**
 * The rows of a bulk as an async iterable: each row once, as soon as a snapshot shows it
 * finished (`success`, `failure` or `error`), in the order they finish. The bulk is subscribed
 * when iteration starts; leaving the loop early (`break`, `return`, a throw) unsubscribes it,
 * which cancels its unfinished groups. An error of the bulk is thrown by the loop after the rows
 * finished before it.
 *
 * ```
 * snapshots:  P──S(1)──S(0,1)──D|
 * yields:        1─────0───────(2)   then done
 * ```
 *
 * ## Example
 * ```ts
 * for await (const row of finishedRows(client.bulk("echo", rows))) console.log(row.index);
 * ```
 * @param snapshots$ a cold bulk
 * @return the finished rows, each once
 * @internal
 */
export function finishedRows<Out extends object>(
  snapshots$: Observable<BulkSnapshot<Out>>
): AsyncIterable<BulkRow<Out>> {
  return {
    async *[Symbol.asyncIterator]() {
      let ready: BulkRow<Out>[] = [];
      let yielded: boolean[] = [];
      let ended = false;
      let failure: { error: unknown } | undefined;
      let wake: (() => void) | undefined;
      const notify = () => {
        wake?.();
        wake = undefined;
      };
      const subscription = snapshots$.subscribe({
        next: (snapshot) => {
          if (yielded.length === 0) yielded = new Array<boolean>(snapshot.runs.length).fill(false);
          snapshot.runs.forEach((entry, index) => {
            if (!yielded[index] && TERMINAL_STATES.includes(entry.state as RunState)) {
              yielded[index] = true;
              ready.push({ ...entry, index });
            }
          });
          notify();
        },
        error: (error: unknown) => {
          failure = { error };
          notify();
        },
        complete: () => {
          ended = true;
          notify();
        },
      });
      try {
        for (;;) {
          // Swapped out whole: a long bulk's rows are not shifted one by one.
          const batch = ready;
          ready = [];
          for (const row of batch) yield row;
          if (failure) throw failure.error;
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        subscription.unsubscribe();
      }
    },
  };
}
