import { SpellError } from "./SpellError.js";

/**
 * A part of this library that is loaded when first needed (a separate chunk in a bundled page)
 * could not be loaded, usually because the network dropped while it was fetched. Raised only
 * where the part is loaded before any request of the call goes out, so nothing was sent: the
 * call can be made again as it is, once the connection is back.
 *
 * ## Example
 * ```ts
 * client.bulk("summarize", rows, { reuse: true }).subscribe({
 *   error: (error) => {
 *     if (error instanceof SpellCodeLoadError) console.warn("nothing was sent; try again");
 *   },
 * });
 * ```
 */
export class SpellCodeLoadError extends SpellError {
  static override readonly errorName: string = "SpellCodeLoadError";

  override name = "SpellCodeLoadError" as const;
  /** Which part failed to load (its module, as `./runs/reusedBulk.js`). */
  readonly module: string;

  /**
   * @param module which part failed to load
   * @param cause what loading it failed with (a bundler's chunk error, a network error)
   */
  constructor(module: string, cause: unknown) {
    super(
      `Could not load part of spellrun's code (${module}), so nothing was sent: check the connection and try again`,
      { cause }
    );
    this.module = module;
  }
}
