/**
 * Excel's rule for a custom function whose argument is an error or still being calculated:
 * - a precedent still being calculated (`#BUSY!`, an asynchronous function that has not
 *   answered): the formula is not evaluated yet; it waits, shown `#BUSY!`, and the function is
 *   called once the value arrives;
 * - an error value: by default Excel does not call the function and the formula gives that
 *   error; only with `allowErrorForDataTypeAny` in functions.json does a parameter of type `any`
 *   receive it (Microsoft, "Custom functions metadata": "Parameters of type any … can accept
 *   errors as input values when allowErrorForDataTypeAny is true").
 */
import { FormulaError } from "fast-formula-parser";
import type { CustomFunctionMetadata } from "../functions/customFunctionsRuntime.js";

/** Why a custom function is not called: a precedent still calculating, or an error it may not take. */
export type HeldCall = { busy: true } | { busy: false; error: FormulaError };

/**
 * Whether a custom function's call waits or gives an error instead of being made, from its
 * arguments as the parser gives them (errors as `FormulaError`, ranges as rows of values).
 *
 * ## Example
 * ```ts
 * heldCall([new FormulaError("#BUSY!")], metadata, false); // { busy: true }
 * heldCall([[["a", new FormulaError("#N/A")]]], metadata, false); // { busy: false, error: #N/A }
 * heldCall(["a"], metadata, false); // undefined: call it
 * ```
 *
 * @param values The arguments (`undefined` for one omitted).
 * @param metadata The function's metadata (its parameters' types).
 * @param allowErrorForDataTypeAny functions.json's `allowErrorForDataTypeAny`.
 * @return Why it is held, or undefined when it is called.
 */
export function heldCall(
  values: readonly unknown[],
  metadata: CustomFunctionMetadata | undefined,
  allowErrorForDataTypeAny: boolean
): HeldCall | undefined {
  let error: FormulaError | undefined;
  const parameters = metadata?.parameters ?? [];
  for (const [index, value] of values.entries()) {
    const parameter = parameters[Math.min(index, parameters.length - 1)];
    const errors = errorsIn(value);
    if (errors.some((found) => found.error === "#BUSY!")) return { busy: true };
    const passed = allowErrorForDataTypeAny && (parameter?.type ?? "any") === "any";
    if (!passed) error ??= errors[0];
  }
  return error ? { busy: false, error } : undefined;
}

/** The errors of a value: itself, or those of a range's cells, in reading order. */
function errorsIn(value: unknown): FormulaError[] {
  if (value instanceof FormulaError) return [value];
  if (!Array.isArray(value)) return [];
  return (value as unknown[]).flatMap((item) => errorsIn(item));
}
