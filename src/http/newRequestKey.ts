/**
 * A random id naming one call (crypto.randomUUID where the runtime has it), sent as the
 * `Idempotency-Key` of a start or bulkStart.
 *
 * ## Example
 * ```ts
 * const headers = { "Idempotency-Key": newRequestKey() };
 * ```
 * @return 32 hex digits or a UUID
 * @internal
 */
export function newRequestKey(): string {
  const random = globalThis.crypto?.randomUUID?.();
  if (random) return random;
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
