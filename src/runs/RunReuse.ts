import type { Observable } from "rxjs";
import { MemoryResultStore } from "../MemoryResultStore.js";
import { DEFAULT_REUSE_TTL_MS } from "./clientDefaults.js";
import type { ResultStore, ReuseOptions, RunSnapshot, SpellInputs } from "../types.js";
import type { BulkReuse } from "./reusedBulk.js";
import { sharedRun } from "./sharedRun.js";

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
  private readonly inFlight = new Map<string, Observable<RunSnapshot>>();
  private store: ResultStore | undefined;

  /** @param options the client's `reuse` option (`undefined` or `false` when only asked per call) */
  constructor(private readonly options: ReuseOptions | false | undefined) {}

  /**
   * One run shared by every subscription with the same key while it is in flight, answered from
   * the store during its TTL (see `sharedRun`).
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
    return sharedRun(
      this.inFlight,
      key,
      () => ({ store: this.resultStore(), ttlMs: this.ttlMs() }),
      fresh
    );
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
