import type { Observable } from "rxjs";
import type { BulkRunAnswer, RunAnswer, WaitAnswer } from "./parseResponses.js";

/**
 * The service's five endpoints as cold Observables of validated answers. The core talks to the
 * service only through this interface, so specs can replace it with marbles.
 *
 * ## Example
 * ```ts
 * const fake: SpellEndpoints = { ...real, getRun: () => cold("-a|", { a: answer }) };
 * ```
 * @internal
 */
export interface SpellEndpoints {
  /** POST start with wait true; one long request. Retried only where nothing started. */
  startAndWait(spellId: string, inputs: Record<string, unknown>): Observable<WaitAnswer>;
  /** POST start with wait false → run id. Retried only where nothing started. */
  startPolling(spellId: string, inputs: Record<string, unknown>): Observable<string | number>;
  /** GET getRun on the poll host. Retried on transient failures. */
  getRun(runId: string | number): Observable<RunAnswer>;
  /**
   * POST bulkStart → group id, sent once: the caller decides about retries (see bulkSnapshots).
   * `onSent` is called when the request leaves for the service (after its wait for a request
   * slot): from then on the service may start the group.
   */
  bulkStartOnce(
    spellId: string,
    inputsList: readonly Record<string, unknown>[],
    onSent?: () => void
  ): Observable<string>;
  /** POST getBulkRuns. Retried on transient failures. */
  getBulkRuns(groupId: string): Observable<BulkRunAnswer[]>;
  /** POST cancelBulk. Retried on transient failures. */
  cancelBulk(groupId: string): Observable<void>;
}
