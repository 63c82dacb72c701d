import { SpellError } from "./SpellError.js";

/**
 * Whether `value` is an error of this library, from this copy or from another one loaded in the
 * same program (the CommonJS build beside the ES module build, two versions in one bundle),
 * where a plain `instanceof` of a class from the other copy would say no. Narrows the type.
 *
 * ## Example
 * ```ts
 * try {
 *   await client.runOutputs("summarize", { text: "A long text" });
 * } catch (error) {
 *   if (isSpellError(error)) console.warn(error.name, error.message);
 *   else throw error;
 * }
 * ```
 * @param value anything thrown or passed to an `error` callback
 * @return true for a `SpellError` of any copy of the library
 */
export function isSpellError(value: unknown): value is SpellError {
  return value instanceof SpellError;
}
