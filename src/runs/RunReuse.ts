import { asyncScheduler, Observable, type SchedulerLike } from "rxjs";
import { MemoryResultStore } from "../MemoryResultStore.js";
import { DEFAULT_REUSE_TTL_MS } from "./clientDefaults.js";
import type { ResultStore, ReuseOptions, RunSnapshot, SpellInputs } from "../types.js";
import type { BulkReuse } from "./BulkReuse.js";
import { SharedRun, type FreshRun, type ResumeRun, type SharedRunHome } from "./SharedRun.js";
import { startedRunKey, startedRunOf, type StartedRun } from "./StartedRun.js";

/** What the store knows of a key: its result, else the run started for it, else nothing. */
interface Known {
  outputs?: Record<string, unknown> | undefined;
  started?: StartedRun | undefined;
}

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

  /**
   * @param options the client's `reuse` option (`undefined` or `false` when only asked per call)
   * @param scheduler the clock of the grace (`ReuseOptions.cancelGraceMs`)
   */
  constructor(
    private readonly options: ReuseOptions | false | undefined,
    private readonly scheduler: SchedulerLike = asyncScheduler
  ) {}

  /**
   * One run shared by every subscription with the same key while it is in flight (and until the
   * store has its success), answered from the store during its TTL (see `SharedRun`). The store
   * is asked once per shared run, for all the runs made in one turn together (the calls of a
   * recalculation), on the next microtask; a broken store only loses the reuse. A store that can
   * `delete` also keeps the runs started for a key until they end: a call finding one (after a
   * reload) watches it with `resume` instead of sending `fresh`.
   *
   * ## Example
   * ```ts
   * reuse.run(key, () => startAndPollRun(api, "echo", inputs, poll, scheduler));
   * ```
   * @param key the run's reuse key
   * @param fresh sends the run, when nothing answers it
   * @param resume watches a run started earlier for the key (without it, none is remembered)
   * @return a cold Observable of snapshots
   */
  run(key: string, fresh: FreshRun, resume?: ResumeRun): Observable<RunSnapshot> {
    return new Observable<RunSnapshot>((subscriber) => {
      let shared = this.inFlight.get(key);
      if (!shared) {
        shared = new SharedRun(key, this.runHome(), fresh, resume);
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
      let answer: Known | PromiseLike<Known>;
      try {
        // A started run's record still being written for the key is awaited first.
        const writing = this.runHome().writes.get(run.key);
        answer = writing
          ? writing.then(() => known(store, run.key, run.resumes))
          : known(store, run.key, run.resumes);
      } catch {
        answer = {};
      }
      if (isPromiseLike(answer)) {
        answer.then(
          ({ outputs, started }) => run.answer(outputs, started),
          () => run.answer(undefined)
        );
      } else {
        run.answer(answer.outputs, answer.started);
      }
    }
  }

  private runHome(): SharedRunHome {
    this.home ??= {
      store: this.resultStore(),
      ttlMs: this.ttlMs(),
      graceMs: (this.options ? this.options.cancelGraceMs : undefined) ?? 0,
      scheduler: this.scheduler,
      writes: new Map(),
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

/**
 * What the store knows of `key`: its result, else (asked only then, and only of a store that can
 * forget it again) the run started for it. Without a promise when the store answers without one.
 */
function known(store: ResultStore, key: string, resumes: boolean): Known | PromiseLike<Known> {
  const outputs = store.get(key);
  const startedOf = (result: Record<string, unknown> | undefined): Known | PromiseLike<Known> => {
    if (result || !resumes || !store.delete) return { outputs: result };
    const started = store.get(startedRunKey(key));
    return isPromiseLike(started)
      ? started.then((value) => ({ started: startedRunOf(value) }))
      : { started: startedRunOf(started) };
  };
  return isPromiseLike(outputs) ? outputs.then(startedOf) : startedOf(outputs);
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | undefined)?.then === "function";
}
