/**
 * The mark every error of this library carries: the names of its class and of the classes it
 * extends. `Symbol.for` gives the same symbol to every copy of the library in a process (the
 * CommonJS and the ES module build, or two versions in one bundle), so each copy recognises the
 * other's errors.
 */
const ERROR_NAMES = Symbol.for("spellrun.errorNames");

/**
 * Base class of every error the core raises, so callers can tell ours from theirs with one
 * `instanceof`. Messages never contain the API key.
 *
 * `instanceof` (on this class and on each subclass) also recognises the errors of another copy
 * of the library loaded in the same program: the CommonJS build next to the ES module build, or
 * two versions side by side. `isSpellError` does the same as a function.
 *
 * ## Example
 * ```ts
 * client.run("summarize", { text }).subscribe({
 *   error: (error) => {
 *     if (error instanceof SpellError) console.warn(error.name, error.message);
 *   },
 * });
 * ```
 */
export class SpellError extends Error {
  /**
   * The name each copy of the library recognises this class by; every subclass declares its
   * own. A class of yours that extends one of ours without declaring it is checked by its
   * prototype chain only, as usual.
   */
  static readonly errorName: string = "SpellError";

  override name: string = "SpellError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // Keeps `instanceof` working when compiled to ES5-style classes by a consumer's bundler.
    Object.setPrototypeOf(this, new.target.prototype);
    Object.defineProperty(this, ERROR_NAMES, { value: errorNamesOf(new.target) });
  }

  /**
   * `value instanceof SpellHttpError` (or any of our classes): true for an object of the class
   * or a subclass, or for an error of the same class made by another copy of the library.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    if (!Object.prototype.hasOwnProperty.call(this, "errorName")) return false;
    const names = (value as { [ERROR_NAMES]?: unknown } | null | undefined)?.[ERROR_NAMES];
    return Array.isArray(names) && names.includes((this as typeof SpellError).errorName);
  }
}

/** The `errorName`s of a class and its ancestors up to `SpellError`. */
function errorNamesOf(errorClass: unknown): string[] {
  const names: string[] = [];
  for (
    let current = errorClass as typeof SpellError | null;
    current && current !== (Error as unknown);
    current = Object.getPrototypeOf(current) as typeof SpellError | null
  ) {
    if (Object.prototype.hasOwnProperty.call(current, "errorName")) names.push(current.errorName);
  }
  return names;
}
