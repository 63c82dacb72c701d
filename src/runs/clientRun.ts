import { concatMap, defer, take, type Observable } from "rxjs";
import type { ClientParts } from "./ClientParts.js";
import type { RunOptions, RunSnapshot, SpellInputs } from "../types.js";
import { lazyModule } from "../util/lazyModule.js";
import { inLoadOrder, withModule } from "./inLoadOrder.js";
import { pollScheduleFor } from "./pollScheduleFor.js";
import { resumedRun } from "./resumedRun.js";
import type { StartedRun } from "./StartedRun.js";
import { startAndPollRun, waitRun } from "./runSnapshots.js";

/** Loaded with the first run asking for reuse (`reuse` option). */
const reuseModule = lazyModule("./runs/RunReuse.js", () => import("./RunReuse.js"));
/** Loaded with the first batched run (`batch` option). */
const batchModule = lazyModule("./runs/batchedRun.js", () => import("./batchedRun.js"));

/**
 * `SpellClient.run` without the call's own controls (`signal`, `timeoutMs`): reuse first, then
 * the `beforeStart` gate, then one run sent in wait or polling mode, or through the batcher.
 * Reuse and batching are loaded on first use.
 *
 * ## Example
 * ```ts
 * clientRun(parts, "echo", { text: "hi" }, { wait: false }).subscribe(console.log);
 * ```
 * @param parts the client's parts
 * @param spellId the spell's id
 * @param inputs the spell's inputs
 * @param options as for `SpellClient.run`
 * @return a cold Observable of snapshots
 * @internal
 */
export function clientRun(
  parts: ClientParts,
  spellId: string,
  inputs: SpellInputs,
  options: RunOptions
): Observable<RunSnapshot> {
  const row = inputs as Record<string, unknown>;
  const wait = options.wait ?? true;
  const { scheduler, poll, durations } = parts;
  const api = options.retry ? parts.api.withRetry(options.retry) : parts.api;
  // Built only when this call is not answered by a run in flight (most calls of a filled-down
  // column are).
  const send = (started?: (run?: StartedRun) => void): Observable<RunSnapshot> => {
    // A batch holds its own run slot (one per bulkStart, like a chunk of `bulk`).
    if (!wait && parts.batchSettings !== undefined) {
      return withModule(parts, batchModule, ({ batchedRun }) =>
        batchedRun(parts, spellId, row, started)
      );
    }
    return inLoadOrder(parts, () =>
      parts.limiter.schedule(
        defer(() => {
          // Out of the queue: its start goes now, so reuse keeps it for a caller coming back.
          started?.();
          return wait
            ? // The transport bounds the start by waitTimeoutMs from sending it.
              waitRun(api, spellId, row, Infinity, scheduler, poll)
            : startAndPollRun(api, spellId, row, poll, scheduler, {
                schedule: pollScheduleFor(durations, spellId, options.expectedDurationMs, poll),
                onDuration: (durationMs) => durations.record(spellId, durationMs),
              });
        })
      )
    );
  };
  // The gate sits after reuse: only a run really about to be sent asks it.
  const gate = options.beforeStart;
  const fresh = gate
    ? (started?: (run?: StartedRun) => void) =>
        gate.pipe(
          take(1),
          concatMap(() => send(started))
        )
    : send;
  const reuse =
    options.reuse ?? (parts.options.reuse !== undefined && parts.options.reuse !== false);
  if (!reuse) return fresh();
  const key = parts.reuseKey(spellId, inputs);
  // A run started earlier for the key (before a reload) is watched again, never sent again.
  const resume = (started: StartedRun): Observable<RunSnapshot> | undefined => {
    if ("runId" in started) {
      return resumedRun(parts.api, parts.limiter, poll, scheduler, started.runId);
    }
    // A group this client cancelled (every caller let go of it) has nothing to watch: sent anew.
    if (parts.batcher?.hasCancelled(started.groupId)) return undefined;
    return withModule(parts, batchModule, ({ rejoinedRow }) => rejoinedRow(parts, started));
  };
  return withModule(parts, reuseModule, ({ RunReuse }) =>
    (parts.reuse ??= new RunReuse(parts.options.reuse, scheduler)).run(key, fresh, resume)
  );
}
