/**
 * Base class of every error the core raises, so callers can tell ours from theirs with one
 * `instanceof`. Messages never contain the API key.
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
  override name: string = "SpellError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // Keeps `instanceof` working when compiled to ES5-style classes by a consumer's bundler.
    Object.setPrototypeOf(this, new.target.prototype);
  }
}
