/**
 * An entry as storage holds it (one item, as JSON): the full reuse key, so that a hash collision
 * of ids can never return another run's outputs, and the outputs.
 *
 * @internal
 */
export interface StoredEntry {
  key: string;
  outputs: Record<string, unknown>;
}

/**
 * What a `PersistentResultStore` knows of an entry, in memory or storage or both; its outputs are
 * in the memory tier while there.
 *
 * @internal
 */
export interface EntryRow {
  expiresAt: number;
  /** Characters of its stored text (`{key, outputs}` as JSON). */
  chars: number;
  /** A started run's record (see `startedRunKey` in src/runs/StartedRun.ts), not a result. */
  started: boolean;
  /** In the stored index (and its item written, or to be written at the next flush). */
  stored: boolean;
}
