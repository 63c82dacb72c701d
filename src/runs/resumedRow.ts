import { concatMap, defer, type Observable } from "rxjs";
import type { ClientParts } from "./ClientParts.js";
import type { RunSnapshot } from "../types.js";
import { resumedRun } from "./resumedRun.js";
import type { StartedRun } from "./StartedRun.js";
import { loadCode } from "../util/loadCode.js";

/**
 * A run remembered as started (before a reload), watched again: a single run polled by its id,
 * a row of a bulk run through the batcher (the rows of one group share one poll, and the group
 * is cancelled when the last of them leaves unfinished). `undefined` for a group this client
 * cancelled: it has nothing to watch, and is sent anew.
 *
 * ## Example
 * ```ts
 * resumedRow(parts, { spellId: "echo", groupId: "g-1", row: 2, size: 5 })?.subscribe(render);
 * ```
 * @param parts the client's parts
 * @param started the run remembered as started
 * @return a cold Observable of the run's snapshots, or `undefined`
 * @internal
 */
export function resumedRow(
  parts: ClientParts,
  started: StartedRun
): Observable<RunSnapshot> | undefined {
  if ("runId" in started) {
    return resumedRun(parts.api, parts.limiter, parts.poll, parts.scheduler, started.runId);
  }
  if (parts.batcher?.hasCancelled(started.groupId)) return undefined;
  return defer(() => loadCode("./runs/batchedRun.js", () => import("./batchedRun.js"))).pipe(
    concatMap(({ rejoinedRow }) => rejoinedRow(parts, started))
  );
}
