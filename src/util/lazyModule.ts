import { SpellCodeLoadError } from "../errors/SpellCodeLoadError.js";

/**
 * A module loaded on first use (a dynamic `import()`, which a bundler makes a separate chunk):
 * `module` is there, synchronously, once the first `load()` has finished.
 *
 * ## Example
 * ```ts
 * const bulkModule = lazyModule("./runs/clientBulk.js", () => import("./clientBulk.js"));
 * const { clientBulk } = bulkModule.module ?? (await bulkModule.load());
 * ```
 * @internal
 */
export interface LazyModule<M> {
  /** The module, once loaded. */
  readonly module: M | undefined;
  /** Loads the module (once; a failed load is tried again by the next call). */
  load(): Promise<M>;
}

/**
 * Wraps a dynamic import as a `LazyModule`.
 *
 * ## Example
 * ```ts
 * const reuseModule = lazyModule("./runs/RunReuse.js", () => import("./RunReuse.js"));
 * ```
 * Every part loaded so is loaded before its call's first request, so a failed load is a
 * `SpellCodeLoadError` (nothing was sent; sending again is safe).
 * @param name the module's path, for the error
 * @param load the dynamic import
 * @return the module's loader
 * @internal
 */
export function lazyModule<M>(name: string, load: () => Promise<M>): LazyModule<M> {
  let loading: Promise<M> | undefined;
  const lazy = {
    module: undefined as M | undefined,
    load: (): Promise<M> =>
      (loading ??= load().then(
        (module) => (lazy.module = module),
        (error: unknown) => {
          loading = undefined;
          throw new SpellCodeLoadError(name, error);
        }
      )),
  };
  return lazy;
}
