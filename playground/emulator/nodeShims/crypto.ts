/**
 * The one function of `node:crypto` the emulator's key check uses, for the playground's in-page
 * emulator (playground/webpack.config.cjs maps the import here in browser builds). Compares
 * every byte whatever the first difference, as Node's does.
 *
 * @example
 * ```ts
 * timingSafeEqual(new TextEncoder().encode("a"), new TextEncoder().encode("a")); // true
 * ```
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) throw new RangeError("Input buffers must have the same length");
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a[index] ^ b[index];
  return difference === 0;
}
