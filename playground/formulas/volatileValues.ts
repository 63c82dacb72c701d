/**
 * The values of the volatile functions (RAND, RANDBETWEEN, NOW, TODAY) of a formula, kept from
 * the calculation that made its custom functions' calls. In Excel, a custom function's value
 * arriving completes that cell's formula: it is not a new calculation, so the volatile functions
 * keep their values and the custom functions are not called again for that arrival. Evaluated
 * afresh instead, `=SPELL.RUN("x", SPELL.INPUTS("text", RAND()))` would call SPELL.RUN with new
 * inputs at every arrival, each call's value bringing the next call, without end.
 */
import type { FunctionArgument } from "fast-formula-parser";
import type { Evaluation } from "./customFunctionCalls.js";

/** The built-in volatile functions that give a value of their own (OFFSET, INDIRECT read cells). */
export const VOLATILE_FUNCTIONS: readonly string[] = ["RAND", "RANDBETWEEN", "NOW", "TODAY"];

/** A volatile function's value in one calculation of a formula: which call gave it, and what. */
export interface VolatileValue {
  /** The function and its arguments. */
  key: string;
  value: unknown;
}

/**
 * Wraps the parser's volatile functions in place: a formula evaluated afresh notes what each call
 * gave (in the formula's `FormulaState.volatiles`, in the order of the calls); a formula
 * completed by a custom function's value (`Evaluation.resumed`) gets those values again, so its
 * custom functions get the same arguments (the call kept, nothing run again).
 *
 * @example
 * ```ts
 * keepVolatileValues(parserFunctions, () => current);
 * ```
 * @param functions The parser's functions by name (changed in place).
 * @param current The formula being evaluated, when a function is called.
 */
export function keepVolatileValues(
  functions: Record<string, (...args: FunctionArgument[]) => unknown>,
  current: () => Evaluation | undefined
): void {
  for (const name of VOLATILE_FUNCTIONS) {
    const original = functions[name];
    if (!original) continue;
    functions[name] = (...args) => {
      const evaluation = current();
      if (!evaluation) return original(...args);
      const index = evaluation.volatileIndex++;
      const key = JSON.stringify([name, args.map((arg) => (arg.omitted ? null : arg.value))]);
      const kept = evaluation.resumed ? evaluation.state.volatiles?.[index] : undefined;
      if (kept?.key === key) return kept.value;
      const value = original(...args);
      (evaluation.state.volatiles ??= [])[index] = { key, value };
      return value;
    };
  }
}
