/**
 * A run sent for a reuse key and not known to have ended: a single run's id, or a row of a
 * batched bulk run (its group, row and the group's size). Kept in the client's result store
 * (under `startedRunKey`) from the moment the service named it until its success is stored or
 * it ended in failure, so that a call with the key after a reload watches that run again
 * instead of paying for a new one.
 *
 * ## Example
 * ```ts
 * const started: StartedRun = { spellId: "echo", groupId: "g-1", row: 3, size: 10 };
 * ```
 * @internal
 */
export type StartedRun = { runId: string | number } | StartedBulkRow;

/**
 * A row of a batched bulk run: the spell, the group, the row's index in it and its size.
 *
 * ## Example
 * ```ts
 * const row: StartedBulkRow = { spellId: "echo", groupId: "g-1", row: 3, size: 10 };
 * ```
 * @internal
 */
export interface StartedBulkRow {
  spellId: string;
  groupId: string;
  row: number;
  size: number;
}

/**
 * The store key of the started run of a reuse key. Reuse keys are JSON arrays (`[…`), so this
 * prefix never names a result.
 *
 * ## Example
 * ```ts
 * store.get(startedRunKey(key));
 * ```
 * @param key the run's reuse key
 * @return the key its started run is kept under
 * @internal
 */
export function startedRunKey(key: string): string {
  return `started ${key}`;
}

/**
 * The started run held in a store's answer for `startedRunKey`, if it is one (a store holding
 * something else under the key only loses the resume).
 *
 * ## Example
 * ```ts
 * const started = startedRunOf(await store.get(startedRunKey(key)));
 * ```
 * @param stored what the store answered
 * @return the started run, or `undefined`
 * @internal
 */
export function startedRunOf(stored: Record<string, unknown> | undefined): StartedRun | undefined {
  const value = stored?.startedRun as Partial<Record<string, unknown>> | undefined;
  if (!value || typeof value !== "object") return undefined;
  if (typeof value.runId === "string" || typeof value.runId === "number") {
    return { runId: value.runId };
  }
  const { spellId, groupId, row, size } = value;
  if (
    typeof spellId === "string" &&
    typeof groupId === "string" &&
    Number.isInteger(row) &&
    Number.isInteger(size) &&
    (row as number) >= 0 &&
    (row as number) < (size as number)
  ) {
    return { spellId, groupId, row: row as number, size: size as number };
  }
  return undefined;
}
