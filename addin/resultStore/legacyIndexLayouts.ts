import { resultId } from "./resultId.js";
import type { StorageTier } from "./StorageTier.js";
import type { EntryRow } from "./StoredEntry.js";

/**
 * One index row of an earlier version: [item id, expiresAt (ms since epoch), characters stored].
 *
 * @internal
 */
export type LegacyRow = [id: string, expiresAt: number, chars: number];

/**
 * Whether a value is a `LegacyRow`.
 *
 * @internal
 * @param value a row of an earlier index
 * @return `true` for a well-formed row
 */
export function isLegacyRow(value: unknown): value is LegacyRow {
  return (
    Array.isArray(value) &&
    typeof value[0] === "string" &&
    typeof value[1] === "number" &&
    typeof value[2] === "number"
  );
}

/**
 * Whether a parsed index item is the previous version's: every row in the one index item, ids
 * as today.
 *
 * @internal
 * @param value the parsed index item
 * @return `true` for that layout
 */
export function isRowsIndex(value: unknown): value is { ids: "hashText"; rows: unknown[] } {
  return (
    value !== null &&
    typeof value === "object" &&
    (value as { ids?: unknown }).ids === "hashText" &&
    Array.isArray((value as { rows?: unknown }).rows)
  );
}

/**
 * Takes the rows of an index in an earlier layout (one item) into `rows` as stored results (an
 * id `rows` has already is skipped); the index and its head are written anew at the next flush.
 *
 * @internal
 * @param legacyRows the earlier index's rows, under today's ids
 * @param rows the store's rows, added to
 * @param storage the storage tier, which adopts them
 */
export function takeLegacyRows(
  legacyRows: LegacyRow[],
  rows: Map<string, EntryRow>,
  storage: StorageTier
): void {
  for (const [id, expiresAt, chars] of legacyRows) {
    if (rows.has(id)) continue;
    const row: EntryRow = { expiresAt, chars, started: false, stored: true };
    rows.set(id, row);
    storage.adopt(id, row);
  }
  // The head is written in today's layout (over the old index item) at the next flush.
  storage.rewriteHead();
}

/**
 * Rows of the earliest version's index (a bare array) under today's ids: each live entry is read
 * once (it holds its full key), written again under `resultId(key)` and removed under its old id,
 * so that results remembered before an update are still reused after it; expired ones are
 * removed.
 *
 * @internal
 * @param parsed the parsed index item
 * @param storage the storage tier, which reads the entries and queues the writes
 * @param now the time now (ms since epoch)
 * @return the live rows under today's ids
 */
export async function rekeyLegacyRows(
  parsed: unknown[],
  storage: StorageTier,
  now: number
): Promise<LegacyRow[]> {
  const legacyRows = parsed.filter(isLegacyRow);
  const live = legacyRows.filter(([, expiresAt]) => expiresAt > now);
  const entries = await Promise.all(live.map(([oldId]) => storage.readEntry(oldId)));
  const rows: LegacyRow[] = [];
  live.forEach(([oldId, expiresAt, chars], index) => {
    const entry = entries[index];
    const id = entry === undefined ? undefined : resultId(entry.key);
    if (id !== oldId) storage.removeItem(oldId);
    if (entry === undefined || id === undefined) return;
    rows.push([id, expiresAt, chars]);
    storage.writeAnew(id, JSON.stringify(entry));
  });
  for (const [oldId, expiresAt] of legacyRows) {
    if (expiresAt <= now) storage.removeItem(oldId);
  }
  return rows;
}
