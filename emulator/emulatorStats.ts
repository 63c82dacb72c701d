import { ENDPOINTS } from "./faultOptions.js";
import type { Endpoint } from "./faultOptions.js";

/**
 * Live counters of an emulator, for tests and benchmarks ("no run was started twice").
 * `inFlight` and `singleInFlight` are computed from the clock whenever they are read.
 *
 * @example
 * ```ts
 * expect(emulator.stats.requests.start).toBe(1);
 * expect(Object.values(emulator.stats.createdByKey).every((n) => n === 1)).toBeTrue();
 * ```
 */
export interface EmulatorStats {
  /** Every request that reached the route, faulted and unauthorised ones included. */
  requests: Record<Endpoint, number>;
  /** Single runs actually created by start. */
  runsCreated: number;
  bulkGroupsCreated: number;
  /** Runs created inside bulk groups. */
  bulkRunsCreated: number;
  /** Runs (single and bulk, queued bulk runs included) currently inProgress. */
  inFlight: number;
  peakInFlight: number;
  /** Single runs currently inProgress. */
  singleInFlight: number;
  peakSingleInFlight: number;
  cancelledGroups: number;
  /** `JSON.stringify([spellId, inputs])` → how many single runs were created (duplicates show as > 1). */
  createdByKey: Record<string, number>;
  /**
   * `JSON.stringify([spellId, inputs])` → how many bulk runs were created with these inputs; filled
   * only with the `countBulkInputs` option.
   */
  bulkCreatedByKey: Record<string, number>;
  /** Injected faults by kind: "429", "503", "500", "drop", "latency". */
  faults: Record<string, number>;
}

/** Where the live in-flight figures come from. */
export interface InFlightSource {
  inFlight(): number;
  singleInFlight(): number;
}

/**
 * Creates the live stats object. `inFlight` / `singleInFlight` are enumerable getters, so they
 * are current when read and survive `JSON.stringify` (the control API serves this object).
 *
 * @example
 * ```ts
 * const stats = createEmulatorStats(store);
 * stats.requests.getRun++;
 * ```
 */
export function createEmulatorStats(source: InFlightSource): EmulatorStats {
  const stats = {} as EmulatorStats;
  resetEmulatorStats(stats);
  Object.defineProperty(stats, "inFlight", { enumerable: true, get: () => source.inFlight() });
  Object.defineProperty(stats, "singleInFlight", {
    enumerable: true,
    get: () => source.singleInFlight(),
  });
  return stats;
}

/**
 * Zeroes every counter in place (the object stays the same, so references held by tests stay
 * live). Peaks restart from the runs in flight now.
 *
 * @example
 * ```ts
 * resetEmulatorStats(emulator.stats);
 * ```
 */
export function resetEmulatorStats(stats: EmulatorStats): void {
  stats.requests = Object.fromEntries(ENDPOINTS.map((endpoint) => [endpoint, 0])) as Record<
    Endpoint,
    number
  >;
  stats.runsCreated = 0;
  stats.bulkGroupsCreated = 0;
  stats.bulkRunsCreated = 0;
  stats.peakInFlight = "inFlight" in stats ? stats.inFlight : 0;
  stats.peakSingleInFlight = "singleInFlight" in stats ? stats.singleInFlight : 0;
  stats.cancelledGroups = 0;
  stats.createdByKey = {};
  stats.bulkCreatedByKey = {};
  stats.faults = {};
}
