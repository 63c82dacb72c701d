import type { Observable } from "rxjs";
import type { ResultStore, RunSnapshot } from "../types.js";
import type { StartedRun } from "./StartedRun.js";

/**
 * What `reusedBulk` needs from the client: its result store, how long a success is kept, and
 * the reuse key of a row (the same key `run` uses, so both share remembered results).
 *
 * ## Example
 * ```ts
 * const reuse: BulkReuse = { store, ttlMs: 86_400_000, keyOf: (inputs) => client.reuseKey("echo", inputs) };
 * ```
 * @internal
 */
export interface BulkReuse {
  store: ResultStore;
  ttlMs: number;
  keyOf: (inputs: Record<string, unknown>) => string;
  /**
   * Watches a row started earlier (before a reload) again, as `run` does; `undefined` when there
   * is nothing to watch. With it, and a store that can `delete`, each row sent is remembered as
   * started (its group and row) until its success is stored or it failed, and a later bulk
   * finding such a row watches it instead of sending it again.
   */
  resume?: (started: StartedRun) => Observable<RunSnapshot> | undefined;
}
