import type { Observable } from "rxjs";
import type { BulkResumeToken, BulkSnapshot } from "../types.js";
import type { BulkJobOptions } from "./BulkJobOptions.js";
import type { JobWindow } from "./JobWindow.js";
import { refusalNoted } from "./refusalNoted.js";

/**
 * The bulk that sends a window's rows for the first time (its intent already recorded), with the
 * caller's bulk options, the spending gate's refusal noted on the window, and one chunk intent
 * recorded before each chunk's bulkStart (without `reuse`).
 *
 * ## Example
 * ```ts
 * const source = windowBulk(options, window, detach$, (token) => recordChunkIntent(window, token));
 * ```
 * @param options the job's options
 * @param window the window to send
 * @param detach$ emits when the job ends the bulks without cancelling them
 * @param chunkIntent records a chunk's intent before its bulkStart can leave
 * @return the window's snapshots
 * @internal
 */
export function windowBulk<Row>(
  options: BulkJobOptions<Row>,
  window: JobWindow<Row>,
  detach$: Observable<void>,
  chunkIntent: (token: BulkResumeToken) => Promise<void>
): Observable<BulkSnapshot> {
  const inputs = window.sentRows.map((place) => options.inputsOf(window.rows[place]));
  const gate = options.bulkOptions?.beforeStart;
  return options.client.bulk(options.spellId, inputs, {
    ...options.bulkOptions,
    // A refusal by the gate comes before any bulkStart: noted, so it is classed as refused.
    ...(gate ? { beforeStart: (runs: number) => refusalNoted(() => gate(runs), window) } : {}),
    // With reuse the runs sent are not the window's rows one for one (identical rows share
    // one, remembered ones are not sent): chunk intents could not say which rows a chunk
    // holds, so such a window keeps to its intent and group records.
    ...(options.bulkOptions?.reuse ? {} : { beforeChunkStart: chunkIntent }),
    detach: detach$,
  });
}
