import { Observable } from "rxjs";
import { MemoryResultStore } from "../MemoryResultStore.js";
import { DEFAULT_REUSE_TTL_MS } from "./clientDefaults.js";
import type { ResultStore, ReuseOptions, RunSnapshot, SpellInputs } from "../types.js";
import type { BulkReuse } from "./reusedBulk.js";
import { SharedRun, type SharedRunHome } from "./SharedRun.js";

/**
 * A client's result reuse: the runs in flight by reuse key and the store of successes (the
 * client's `reuse.store`, else a `MemoryResultStore` made on first use). Loaded with the first
 * run or bulk that asks for reuse: a client that never does never loads it.
 *
 * ## Example
 * ```ts
 * const reuse = new RunReuse({ ttlMs: 60_000 });
 * reuse.run(client.reuseKey("echo", inputs), () => client.run("echo", inputs)).subscribe(console.log);
 * ```
 * @internal
 */
export class RunReuse {
  private readonly inFlight = new Map<string, SharedRun>();
  /** Runs made since the last look-up, asked of the store together on the next microtask. */
  private asking: SharedRun[] = [];
  private store: ResultStore | undefined;
  private home: SharedRunHome | undefined;

  /** @param options the client's `reuse` option (`undefined` or `false` when only asked per call) */
  constructor(private readonly options: ReuseOptions | false | undefined) {}

  /**
   * One run shared by every subscription with the same key while it is in flight (and until the
   * store has its success), answered from the store during its TTL (see `SharedRun`). The store
   * is asked once per shared run, for all the runs made in one turn together (the calls of a
   * recalculation), on the next microtask; a broken store only loses the reuse.
   *
   * ## Example
   * ```ts
   * reuse.run(key, () => startAndPollRun(api, "echo", inputs, poll, scheduler));
   * ```
   * @param key the run's reuse key
   * @param fresh sends the run, when nothing answers it
   * @return a cold Observable of snapshots
   */
  run(key: string, fresh: () => Observable<RunSnapshot>): Observable<RunSnapshot> {
    return new Observable<RunSnapshot>((subscriber) => {
      let shared = this.inFlight.get(key);
      if (!shared) {
        shared = new SharedRun(key, this.runHome(), fresh);
        this.inFlight.set(key, shared);
        if (this.asking.push(shared) === 1) queueMicrotask(() => this.lookUp());
      }
      return shared.join(subscriber);
    });
  }

  /** Asks the store about every run made since the last look-up, in the order they were made. */
  private lookUp(): void {
    const runs = this.asking;
    this.asking = [];
    const store = this.resultStore();
    for (const run of runs) {
      // Every subscriber left before the look-up: nothing asked, nothing sent.
      if (!run.open) continue;
      let answer: ReturnType<ResultStore["get"]>;
      try {
        answer = store.get(run.key);
      } catch {
        answer = undefined;
      }
      if (isPromiseLike(answer)) {
        answer.then(
          (outputs) => run.answer(outputs),
          () => run.answer(undefined)
        );
      } else {
        run.answer(answer);
      }
    }
  }

  private runHome(): SharedRunHome {
    this.home ??= {
      store: this.resultStore(),
      ttlMs: this.ttlMs(),
      forget: (run) => {
        if (this.inFlight.get(run.key) === run) this.inFlight.delete(run.key);
      },
    };
    return this.home;
  }

  /**
   * What a bulk with reuse needs: the same store and TTL, and the row key of `spellId`.
   *
   * ## Example
   * ```ts
   * reusedBulk(reuse.forBulk((inputs) => client.reuseKey("echo", inputs)), rows, send);
   * ```
   * @param keyOf the reuse key of a row
   * @return the store, TTL and key function
   */
  forBulk(keyOf: (inputs: SpellInputs) => string): BulkReuse {
    return { store: this.resultStore(), ttlMs: this.ttlMs(), keyOf };
  }

  private ttlMs(): number {
    return (this.options ? this.options.ttlMs : undefined) ?? DEFAULT_REUSE_TTL_MS;
  }

  private resultStore(): ResultStore {
    this.store ??= (this.options ? this.options.store : undefined) ?? new MemoryResultStore();
    return this.store;
  }
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | undefined)?.then === "function";
}
