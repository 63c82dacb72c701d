import { SpellClient, type SpellClientOptions } from "spellrun";
import type { RunningEmulator } from "../../../emulator/startEmulator.js";

/** Fast polling and retries for jobs against the emulator (time scale 0.02). */
export const FAST: Partial<SpellClientOptions> = {
  poll: { initialDelayMs: 20, intervalMs: 20, growth: 1, maxIntervalMs: 20 },
  retry: { baseDelayMs: 1, maxDelayMs: 5, limit: 2 },
};

/**
 * A client of `emulator` with `FAST` polling, and `options` on top.
 *
 * ## Example
 * ```ts
 * const client = emulatorJobClient(emulator, { timeouts: { startMs: 1000 } });
 * ```
 */
export function emulatorJobClient(
  emulator: RunningEmulator,
  options: Partial<SpellClientOptions> = {}
): SpellClient {
  const { baseUrl, pollBaseUrl, apiKey } = emulator;
  return new SpellClient({ baseUrl, pollBaseUrl, apiKey, ...FAST, ...options });
}

/**
 * Runs of the `sleep` spell created at the emulator per row (by its inputs), in row order: the
 * money check of the engine specs (never two for a row). Needs the emulator's `countBulkInputs`.
 *
 * ## Example
 * ```ts
 * expect(createdPerRow(emulator, rows)).toEqual(new Array(rows.length).fill(1));
 * ```
 */
export function createdPerRow(
  emulator: RunningEmulator,
  rows: readonly { id: number; ms: number }[]
): number[] {
  const created = emulator.stats.bulkCreatedByKey;
  return rows.map((row) => created[JSON.stringify(["sleep", { id: row.id, ms: row.ms }])] ?? 0);
}
