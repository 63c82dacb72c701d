import type { Observable } from "rxjs";
import type { RunAnswer, WaitAnswer } from "./parseResponses.js";

/**
 * The endpoints a client loads at once: those of a single run, and `cancelBulk` (a public call
 * of the client). `SpellEndpoints` adds the bulk endpoints, loaded with the first bulk.
 *
 * ## Example
 * ```ts
 * const fake: SpellRunEndpoints = { ...real, getRun: () => cold("-a|", { a: answer }) };
 * ```
 * @internal
 */
export interface SpellRunEndpoints {
  /** POST start with wait true; one long request. Retried only where nothing started. */
  startAndWait(spellId: string, inputs: Record<string, unknown>): Observable<WaitAnswer>;
  /** POST start with wait false → run id. Retried only where nothing started. */
  startPolling(spellId: string, inputs: Record<string, unknown>): Observable<string | number>;
  /** GET getRun on the poll host. Retried on transient failures. */
  getRun(runId: string | number): Observable<RunAnswer>;
  /** POST cancelBulk. Retried on transient failures. */
  cancelBulk(groupId: string): Observable<void>;
}
