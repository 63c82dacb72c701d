import type { FaultOptions } from "./faultOptions.js";

/**
 * Options of {@link startEmulator}. Every field is optional.
 *
 * @example
 * ```ts
 * const emulator = await startEmulator({ timeScale: 0.02, ttlMs: 60_000 });
 * ```
 */
export interface EmulatorOptions {
  /** Interface to listen on. Loopback only. @default "127.0.0.1" */
  host?: string;
  /** Base host port; 0 = a random free port. @default 0 */
  port?: number;
  /** Poll host port (its own listener); 0 = a random free port. @default 0 */
  pollPort?: number;
  /** The one API key accepted. @default "spellrun-dev-key" */
  apiKey?: string;
  /** Path of the spells JSON file. @default emulator/spells.json */
  spellsFile?: string;
  /** Multiplies every spell duration (tests use e.g. 0.02 to run fast). @default 1 */
  timeScale?: number;
  /**
   * The clock runs are timed by (a run finishes at its creation + its scaled duration, then
   * expires after `ttlMs`). A spec that must see some runs finish before another moves a clock of
   * its own forward instead of betting on the machine's speed. @default Date.now
   */
  now?: () => number;
  /** Fault injection; all off by default. */
  faults?: FaultOptions;
  /** Finished runs and groups expire this many ms after they finish. @default 3_600_000 */
  ttlMs?: number;
  /** Request bodies above this size get a 413. @default 5 MiB */
  bodyLimitBytes?: number;
  /** How many runs of one bulk group progress at the same time; the rest queue. @default 50 */
  bulkConcurrency?: number;
  /**
   * Count bulk runs per input in `stats.bulkCreatedByKey` (specs proving that no row ran twice).
   * Off by default: a million-row bulk would hold a million keys. @default false
   */
  countBulkInputs?: boolean;
  /** Wait mode answers 504 after this many wall-clock ms (the run carries on). @default 120_000 */
  waitTimeoutMs?: number;
  /**
   * Told one readable line per request answered (see `formatRequestLine`: method, path, status,
   * duration, run or group id; never a header or body). The CLI's `--log`. @default none
   */
  requestLog?: (line: string) => void;
}
