import { distinctUntilChanged, map, type MonoTypeOperatorFunction } from "rxjs";
import { runEndedText } from "../errors/runEndedText.js";
import { SpellRunError } from "../errors/SpellRunError.js";
import type { RunSnapshot } from "../types.js";

/**
 * Passes a run snapshot on only when its state (or the service's own state text,
 * `serviceState`) differs from the previous one, and turns a run
 * that finished unsuccessfully (`failure`, `error`) into a `SpellRunError` carrying its state,
 * run id and outputs.
 *
 * ```
 * source:  ──i──i──i──s|        (i: inProgress, s: success)
 * result:  ──i────────s|
 * source:  ──i──i──f|           (f: failure)
 * result:  ──i─────#            (SpellRunError, state "failure")
 * ```
 *
 * ## Example
 * ```ts
 * pollRun(api, runId, poll, scheduler).pipe(onStateChanges()).subscribe(render);
 * ```
 * @return an operator on run snapshots
 * @internal
 */
export function onStateChanges(): MonoTypeOperatorFunction<RunSnapshot> {
  return (source) =>
    source.pipe(
      distinctUntilChanged(
        (previous, current) =>
          previous.state === current.state && previous.serviceState === current.serviceState
      ),
      map((snapshot) => {
        if (snapshot.state === "failure" || snapshot.state === "error") {
          // A state the service named its own way ("cancelled") is kept in the message.
          const detail =
            snapshot.serviceState === undefined
              ? undefined
              : runEndedText(snapshot.state, snapshot.runId, snapshot.serviceState);
          throw new SpellRunError(snapshot.state, snapshot.outputs, snapshot.runId, detail);
        }
        return snapshot;
      })
    );
}
