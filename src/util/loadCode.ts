import { SpellCodeLoadError } from "../errors/SpellCodeLoadError.js";

/**
 * Loads a part of the library that is split off until first needed (`import()`), turning a
 * failed load into a `SpellCodeLoadError`, so that callers can tell "nothing was sent" from a
 * start that may have left. Use it only for code loaded before the call's first request.
 *
 * ## Example
 * ```ts
 * defer(() => loadCode("./reusedBulk.js", () => import("./reusedBulk.js")));
 * ```
 *
 * @param module the module's path, for the error
 * @param load the `import()` itself (written out at the call, so bundlers see it)
 * @return the loaded module
 * @throws SpellCodeLoadError when loading failed
 */
export function loadCode<T>(module: string, load: () => Promise<T>): Promise<T> {
  return load().catch((error: unknown) => {
    throw new SpellCodeLoadError(module, error);
  });
}
