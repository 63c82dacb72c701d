import { excelError } from "./excelError.js";

/**
 * The `#N/A` for output names a run does not have, listing the ones it has.
 *
 * ## Example
 * ```ts
 * throw unknownOutputError(["summry"], ["summary", "words"]);
 * ```
 *
 * @param unknown The names asked for that do not exist.
 * @param available The run's output names.
 * @return The error value.
 */
export function unknownOutputError(unknown: string[], available: string[]): CustomFunctions.Error {
  const asked = unknown.map((name) => `"${name}"`).join(", ");
  const existing = available.length > 0 ? available.join(", ") : "none";
  return excelError("#N/A", `No output ${asked}. This spell's outputs are: ${existing}.`);
}
