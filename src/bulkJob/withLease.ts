import type { Checkpoint, CheckpointStore, JobLease } from "./CheckpointStore.js";

/**
 * Runs `body` holding the job's lease in `store`: taken first (a `LeaseHeldError` from the store
 * rejects before anything is done), renewed every third of its time (a renewal that fails calls
 * `onLost`), given up at the end whatever happened.
 *
 * ## Example
 * ```ts
 * const result = await withLease(store, { owner: "w1", ttlMs: 30_000 }, stop, () => job());
 * ```
 * @param store a store with `acquireLease`
 * @param lease this worker's lease
 * @param onLost called when a renewal fails
 * @param body the work
 * @return what `body` returns
 * @internal
 */
export async function withLease<T>(
  store: CheckpointStore,
  lease: JobLease,
  onLost: (error: unknown) => void,
  body: () => Promise<T>
): Promise<T> {
  await store.acquireLease?.(lease);
  const renew = setInterval(() => {
    Promise.resolve()
      .then(() => store.acquireLease?.(lease))
      .catch(onLost);
  }, lease.ttlMs / 3);
  try {
    return await body();
  } finally {
    clearInterval(renew);
    await store.releaseLease?.(lease.owner);
  }
}

/**
 * Whether checkpoint `a` has records `b` lacks: more rows written, windows sent or answered, an
 * end. A checkpoint loaded before the lease was held is stale when the store's own knows more.
 *
 * ## Example
 * ```ts
 * if (knowsMore(await store.load(), given)) resumeFrom(stored);
 * ```
 * @param a the store's checkpoint
 * @param b the one given
 * @return whether `a` is further on
 * @internal
 */
export function knowsMore(a: Checkpoint, b: Checkpoint): boolean {
  if (
    a.writtenRows > b.writtenRows ||
    (a.alsoWritten?.length ?? 0) > (b.alsoWritten?.length ?? 0)
  ) {
    return true;
  }
  if (a.outcome !== undefined && b.outcome === undefined) return true;
  for (const [index, window] of a.windows) {
    const other = b.windows.get(index);
    if (!other || (window.groupId !== undefined && other.groupId === undefined)) return true;
  }
  return false;
}

/**
 * A worker id for a lease: a random UUID where there is one.
 *
 * ## Example
 * ```ts
 * const owner = randomOwner();
 * ```
 * @return the id
 * @internal
 */
export function randomOwner(): string {
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  return uuid ?? `worker-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
