import { EmulatorError } from "../emulatorError.js";

/**
 * Reads the `wait` field of start: `true` / `"true"` wait, `false` / `"false"` poll (any case).
 * The interface leaves the default open; the emulator treats a missing `wait` as `false`
 * (polling mode), the choice that never holds a connection the caller did not ask for.
 *
 * @example
 * ```ts
 * parseWait("true"); // true
 * parseWait(undefined); // false
 * ```
 * @param value The raw field.
 */
export function parseWait(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (value === true || value === false) return value;
  if (typeof value === "string") {
    const text = value.trim().toLowerCase();
    if (text === "true") return true;
    if (text === "false") return false;
  }
  throw new EmulatorError(400, "invalid_wait", '"wait" must be true, false, "true" or "false"');
}
