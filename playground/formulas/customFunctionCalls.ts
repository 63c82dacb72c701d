/**
 * The custom functions' calls of the formulas, as Excel makes them: a call belongs to its cell and
 * is kept while its arguments stay the same (the cell shows `#BUSY!` until its value arrives); a
 * changed argument cancels the call and makes a new one. The values that arrive together are
 * handed on together.
 */
import { FormulaError } from "fast-formula-parser";
import type { FunctionArgument } from "fast-formula-parser";
import { columnName } from "../excel/a1.js";
import { quoteSheet } from "../excel/mockRanges.js";
import type { MockCell } from "../excel/mockWorkbook.js";
import type { CustomFunctionsRuntime } from "../functions/customFunctionsRuntime.js";
import type { FormulaState, Position } from "./formulaState.js";
import { heldCall } from "./errorArguments.js";
import { PENDING, toFunctionArgument, toParser, type CallSite } from "./formulaValues.js";

/**
 * The formula being evaluated: where it is, its state, the number of its custom functions' calls
 * and of its volatile functions' calls so far, and whether it is completed by a custom function's
 * value (its volatile functions keep the values of the calculation that made the call).
 */
export interface Evaluation {
  position: Position;
  state: FormulaState;
  callIndex: number;
  volatileIndex: number;
  resumed: boolean;
}

/**
 * Flushes of arrived values chained in microtasks at most, before the next waits for a task: no
 * chain of values and evaluations can keep the page from answering.
 */
const MAX_CHAINED_FLUSHES = 200;

/**
 * Makes the custom functions' calls of the formulas evaluated, and hands on the formulas whose
 * calls gave a value (once per microtask, all those of that time together).
 *
 * @example
 * ```ts
 * const calls = new CustomFunctionCalls(runtime, states, (cells) => evaluateAgain(cells));
 * new FormulaParser({ functions: calls.functions(() => current) });
 * ```
 */
export class CustomFunctionCalls {
  /** Cells whose calls produced a value since the last flush. */
  private readonly arrived = new Set<FormulaState>();
  private flushQueued = false;
  /** Flushes since the page last ran a task (see `MAX_CHAINED_FLUSHES`). */
  private chainedFlushes = 0;

  /**
   * @param runtime The custom functions.
   * @param states The engine's formulas.
   * @param valuesArrived Called with the formulas whose calls gave a value (in the order of
   *   `states`), to complete with those values (their volatile functions keep their values).
   */
  constructor(
    private readonly runtime: CustomFunctionsRuntime,
    private readonly states: ReadonlyMap<MockCell, FormulaState>,
    private readonly valuesArrived: (cells: MockCell[]) => void
  ) {}

  /**
   * The parser's functions: each custom function of the runtime, called by the formula being
   * evaluated (see `call`).
   *
   * @param current The formula being evaluated, when the function is called.
   */
  functions(
    current: () => Evaluation | undefined
  ): Record<string, (...args: FunctionArgument[]) => unknown> {
    return Object.fromEntries(
      this.runtime
        .functionNames()
        .map((name) => [name, (...args) => this.call(current(), name, args)])
    );
  }

  /**
   * A custom function called by the formula being evaluated: its call site's value so far.
   *
   * @param current The formula being evaluated (none: `#VALUE!`).
   * @param name The function's name.
   * @param args The parser's arguments.
   */
  call(current: Evaluation | undefined, name: string, args: FunctionArgument[]): unknown {
    if (!current) return new FormulaError("#VALUE!");
    const index = current.callIndex++;
    let site = current.state.calls[index];
    const metadata = this.runtime.metadataOf(name);
    const raw = args.map((arg) => (arg.omitted ? undefined : arg.value));
    const held = heldCall(raw, metadata, this.runtime.allowErrorForDataTypeAny);
    if (held?.busy) {
      // Waits for its input: a call made before is kept (no run again if the value is the same).
      current.state.calls[index] = site ?? { key: "", value: PENDING };
      return toParser(PENDING);
    }
    if (held) {
      site?.subscription?.unsubscribe();
      current.state.calls[index] = { key: "", value: held.error };
      return held.error;
    }
    const values = args.map((arg) => (arg.omitted ? undefined : toFunctionArgument(arg.value)));
    const key = JSON.stringify([name, values]);
    if (!site || site.key !== key) {
      site?.subscription?.unsubscribe();
      const fresh: CallSite = { key, value: PENDING };
      site = fresh;
      current.state.calls[index] = fresh;
      const { sheet, row, column } = current.position;
      const state = current.state;
      let subscribing = true;
      fresh.subscription = this.runtime
        .call(name, values, `${quoteSheet(sheet)}!${columnName(column)}${row + 1}`)
        .subscribe((value) => {
          fresh.value = value;
          // A value given during the call itself is used by this evaluation, right below.
          if (!subscribing) this.valueArrived(state);
        });
      subscribing = false;
    }
    return toParser(site.value);
  }

  /** A call's value arrived: the cell is evaluated again soon, with others that arrived too. */
  private valueArrived(state: FormulaState): void {
    this.arrived.add(state);
    if (this.flushQueued) return;
    this.flushQueued = true;
    const flush = () => {
      if (this.chainedFlushes++ === 0) setTimeout(() => (this.chainedFlushes = 0), 0);
      this.flushQueued = false;
      const arrived = new Set(this.arrived);
      this.arrived.clear();
      const cells = [...this.states]
        .filter(([, state]) => arrived.has(state))
        .map(([cell]) => cell);
      this.valuesArrived(cells);
    };
    if (this.chainedFlushes >= MAX_CHAINED_FLUSHES) setTimeout(flush, 0);
    else queueMicrotask(flush);
  }
}
