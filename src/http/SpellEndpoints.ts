import type { Observable } from "rxjs";
import type { BulkRunAnswer } from "./parseResponses.js";
import type { SpellRunEndpoints } from "./SpellRunEndpoints.js";

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
export interface SpellEndpoints extends SpellRunEndpoints {
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
}
