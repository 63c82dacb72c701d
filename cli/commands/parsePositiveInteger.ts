import { UsageError } from "../errors/UsageError.js";

/**
 * Reads a whole number of at least 1 from an option's text.
 *
 * ## Example
 * ```ts
 * parsePositiveInteger("500", "--chunk-size"); // 500
 * parsePositiveInteger("0", "--chunk-size"); // throws UsageError
 * ```
 * @param text the option's value
 * @param name the option, for the message
 * @return the number
 */
export function parsePositiveInteger(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    throw new UsageError(`${name} must be a whole number of at least 1, not "${text}"`);
  }
  return value;
}
