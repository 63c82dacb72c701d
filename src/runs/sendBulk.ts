import { concatMap, defer, type Observable, take } from "rxjs";
import type { BulkOptions, BulkSnapshot } from "../types.js";
import type { BulkContext } from "./BulkContext.js";
import { bulkSnapshots } from "./bulkSnapshots.js";
import type { BulkReuse } from "./BulkReuse.js";
import { splitBulkChunks } from "./splitBulkChunks.js";
import { loadCode } from "../util/loadCode.js";

/** What `sendBulk` needs of its client. */
export interface SendBulkClient {
  /** The most rows in one bulkStart. */
  bulkChunkSize: number;
  /** The largest bulkStart body, in bytes. */
  maxBulkBodyBytes: number;
  /** The bulk machinery, with a call's own retry timing laid over the client's. */
  bulkContext: (retry: BulkOptions["retry"]) => BulkContext;
  /** The result store, its TTL and the reuse key of a row, asked only with `reuse` on. */
  reuse: () => BulkReuse;
}

/**
 * The body of `SpellClient.bulk` without the call's own controls: the rows split by count and
 * by body size into chunks, the `beforeStart` gate asked for the rows really about to be sent,
 * and with `reuse` on, remembered rows answered from the store and identical rows sent once
 * (the reuse module loaded on the first such bulk).
 *
 * ## Example
 * ```ts
 * sendBulk(client, "echo", rows, { reuse: true }).subscribe(render);
 * ```
 * @param client the client's settings and machinery
 * @param spellId the spell's id
 * @param rowsIn one inputs object per run
 * @param options the bulk options
 * @return a cold Observable of combined snapshots
 */
export function sendBulk(
  client: SendBulkClient,
  spellId: string,
  rowsIn: readonly Record<string, unknown>[],
  options: BulkOptions
): Observable<BulkSnapshot> {
  const gate = options.beforeStart;
  const send = (rows: readonly Record<string, unknown>[]) => {
    const start = defer(() => {
      // Split by rows and by body size before anything is sent (a 413 is no answer to retry).
      const chunks = splitBulkChunks(spellId, rows, client.bulkChunkSize, client.maxBulkBodyBytes);
      return bulkSnapshots(
        client.bulkContext(options.retry),
        spellId,
        chunks,
        options.detach,
        options.beforeChunkStart
      );
    });
    // The gate sits after reuse: it is asked for the runs really about to be sent.
    return gate && rows.length > 0
      ? defer(() => gate(rows.length)).pipe(
          take(1),
          concatMap(() => start)
        )
      : start;
  };
  if (!options.reuse) return send(rowsIn);
  // Loaded when a bulk first asks for reuse: a client that never does never loads it.
  return defer(() => loadCode("./runs/reusedBulk.js", () => import("./reusedBulk.js"))).pipe(
    concatMap(({ reusedBulk }) => reusedBulk(client.reuse(), rowsIn, send))
  );
}
