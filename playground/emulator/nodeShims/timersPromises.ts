/**
 * The one function of `node:timers/promises` the emulator's routes use, for the playground's
 * in-page emulator (playground/webpack.config.cjs maps the import here in browser builds).
 *
 * @example
 * ```ts
 * await setTimeout(100);
 * ```
 */
export function setTimeout(ms: number): Promise<void> {
  return new Promise((resolve) => globalThis.setTimeout(resolve, ms));
}
