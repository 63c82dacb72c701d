import type { Observable, SchedulerLike } from "rxjs";
import { SpellCallTimeoutError } from "../errors/SpellCallTimeoutError.js";
import type { RunOptions } from "../types.js";
import { stopAfter } from "./stopAfter.js";
import { stopOnAbort } from "./stopOnAbort.js";

/**
 * Applies a call's own controls: its time limit (`timeoutMs`), then its `signal`; each stops
 * the call as an unsubscribe does. A call with neither is returned as it is.
 *
 * ## Example
 * ```ts
 * controlCall(run$, { timeoutMs: 60_000 }, `run of "echo"`, asyncScheduler);
 * ```
 * @param source the call's stream
 * @param options the call's `signal` and `timeoutMs`
 * @param call the call as named in a `SpellCallTimeoutError`
 * @param scheduler the scheduler of the time limit
 * @return the stream, stopped by its controls
 */
export function controlCall<T>(
  source: Observable<T>,
  options: Pick<RunOptions, "signal" | "timeoutMs">,
  call: string,
  scheduler: SchedulerLike
): Observable<T> {
  const { signal, timeoutMs } = options;
  if (signal === undefined && timeoutMs === undefined) return source;
  return source.pipe(
    stopAfter<T>(timeoutMs, () => new SpellCallTimeoutError(call, timeoutMs as number), scheduler),
    stopOnAbort<T>(signal)
  );
}
