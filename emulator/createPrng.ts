/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same faults, so a
 * flaky-looking run can be replayed.
 *
 * @example
 * ```ts
 * const random = createPrng(42);
 * random(); // 0.6011037519201636, every time
 * ```
 * @param seed Any 32-bit integer.
 * @returns A function returning numbers in [0, 1).
 */
export function createPrng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
