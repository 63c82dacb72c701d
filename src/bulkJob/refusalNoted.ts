import { catchError, defer, throwError, type Observable } from "rxjs";
import type { JobWindow } from "./JobWindow.js";

/**
 * The gate's answer, noting on the window when it refuses (errors) before anything is sent, so
 * that the window's failure is classed as `refused` (nothing started, a resume may send it).
 *
 * ## Example
 * ```ts
 * client.bulk(spellId, inputs, { beforeStart: (runs) => refusalNoted(() => gate(runs), window) });
 * ```
 * @param gate the caller's `beforeStart` gate, asked once per subscription
 * @param window the window whose bulk the gate is asked about
 * @return the gate's answer, its error passed on
 * @internal
 */
export function refusalNoted<Row>(
  gate: () => Observable<unknown>,
  window: JobWindow<Row>
): Observable<unknown> {
  return defer(gate).pipe(
    catchError((error: unknown) => {
      window.startRefused = true;
      return throwError(() => error);
    })
  );
}
