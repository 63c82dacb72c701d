import { Observable } from "rxjs";
import type { SpendingGuard } from "./spending/SpendingGuard.js";
import type { SpendingGuardError } from "./SpendingGuardError.js";
import { spendingGuardIfReady } from "./spending/spendingGuardSlot.js";

/** The guard, its module loaded on the first start (functions.js does not carry it at start). */
function loadedGuard(): Promise<SpendingGuard> {
  return import("./spendingGuard.js").then(({ spendingGuard }) => spendingGuard());
}

/**
 * A start the spending guard judges: a `SPELL.RUN` cell's run, a `SPELL.BULK` cell's runs, or a
 * bulk the task pane starts (Run, Resume, Retry failed rows).
 *
 * ## Example
 * ```ts
 * const start: GuardedStart = { by: "pane", runs: 36 };
 * ```
 */
export type GuardedStart =
  | {
      by: "formula";
      spellId: string;
      /** What identifies the run or the bulk ("allow these" allows it); computed only when asked. */
      key: () => string;
      runs: number;
      /** The cell asking (`invocation.address`), to recalculate it after a decision. */
      address?: string;
      /** Calls the cell's function again, where the host cannot recalculate the cell. */
      reinvoke?: () => void;
      /**
       * A `SPELL.RUN` cell: judged by the per-cell rule too (its inputs changing at each
       * calculation); a `SPELL.BULK` is not, its table grows row by row.
       */
      judgeInputs?: boolean;
    }
  | { by: "pane"; runs: number };

/**
 * The one spending gate of the add-in, for the core's `beforeStart`: every start of `SPELL.RUN`,
 * `SPELL.BULK` and the task pane goes through it, asked by the core (or the engine) with the runs
 * really about to be sent (remembered results and runs in flight are not asked). Formulas are
 * judged by the threshold and the daily cap; the pane's runs by the daily cap (a click is a
 * decision already). It uses the guard at once when it is loaded (no await on a filled-down
 * column's hot path).
 *
 * ## Example
 * ```ts
 * client.bulk(spellId, rows, { reuse: true, beforeStart: (runs) => spendingGate({ by: "pane", runs }) });
 * ```
 *
 * @param start What would start.
 * @param onCounted Called when the guard counted the runs, just before the gate lets them start
 *   (a cell that started its own run gets the count back if the service refuses it).
 * @return A cold Observable: one value when it may start (counted), else a `SpendingGuardError`.
 */
export function spendingGate(start: GuardedStart, onCounted?: () => void): Observable<void> {
  // One plain Observable, no operators: a filled-down column asks once per new run.
  return new Observable<void>((subscriber) => {
    const judge = (guard: SpendingGuard) => {
      let refusal: unknown;
      try {
        refusal = judgementOf(guard, start);
      } catch (error) {
        refusal = error;
      }
      if (refusal !== undefined) return subscriber.error(refusal);
      onCounted?.();
      subscriber.next();
      subscriber.complete();
    };
    const ready = spendingGuardIfReady();
    if (ready) judge(ready);
    else {
      loadedGuard().then(
        (guard) => {
          if (!subscriber.closed) judge(guard);
        },
        (error: unknown) => subscriber.error(error)
      );
    }
  });
}

/** The guard's judgement of a start: `undefined` when counted, else the refusal. */
function judgementOf(guard: SpendingGuard, start: GuardedStart): unknown {
  if (start.by === "pane") {
    // A click on Run is a decision already: only the daily cap (it throws when passed).
    guard.chargeBulk(start.runs);
    return undefined;
  }
  return guard.admit(
    start.spellId,
    start.key(),
    start.runs,
    start.address,
    start.reinvoke,
    start.judgeInputs
  );
}

/**
 * Records a cell refused with a run it shares with other cells (result reuse asks the gate once
 * per run, with the first cell's address), so that the user's decision recalculates it too.
 *
 * ## Example
 * ```ts
 * if (error instanceof SpendingGuardError) noteSharingCell(error, key, address, runAgain);
 * ```
 *
 * @param error The refusal the cell got.
 * @param key What identifies the run (`client.reuseKey`).
 * @param address The cell.
 * @param reinvoke Calls the cell's function again (where the host cannot recalculate it).
 */
export function noteSharingCell(
  error: SpendingGuardError,
  key: string,
  address: string,
  reinvoke?: () => void
): void {
  // A refusal comes from a loaded guard: it is ready.
  spendingGuardIfReady()?.noteSharingCell(error.reason, key, address, reinvoke);
}

/**
 * Gives back to the spending guard the runs a gate counted for a start the service surely
 * refused (see `startRefused`): the guard counts the runs really sent.
 *
 * ## Example
 * ```ts
 * if (charged && startRefused(error)) refundStart("formula", 1);
 * ```
 *
 * @param by Whose start: a formula's runs leave the 10-minute window too.
 * @param runs The runs the gate counted for it.
 * @param cell A `SPELL.RUN` cell's address and run key: the refused start is no change of its
 *   inputs for the per-cell rule.
 */
export function refundStart(
  by: GuardedStart["by"],
  runs: number,
  cell?: { address: string; key: string }
): void {
  if (runs <= 0) return;
  const refund = (guard: SpendingGuard) =>
    guard.refund(runs, by === "pane" ? "pane" : "formulas", cell);
  const ready = spendingGuardIfReady();
  if (ready) refund(ready);
  else void loadedGuard().then(refund);
}

/**
 * Tells the guard, when loaded, that a `SPELL.RUN` cell was answered without a run of its own (a
 * remembered result, a run another cell started): a cell waiting in the question leaves it. With
 * no guard loaded, no cell waits.
 *
 * ## Example
 * ```ts
 * if (!charged && address) answeredWithoutRun(address);
 * ```
 *
 * @param address The cell.
 */
export function answeredWithoutRun(address: string): void {
  spendingGuardIfReady()?.answeredWithoutRun(address);
}
