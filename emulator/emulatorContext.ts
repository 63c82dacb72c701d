import type { FastifyRequest } from "fastify";
import type { EmulatorStats } from "./emulatorStats.js";
import type { FaultInjector } from "./faults.js";
import type { Spell } from "./loadSpells.js";
import type { RunStore } from "./runStore.js";

/**
 * What every route of one emulator shares: the store, the spells, the faults and the stats.
 * Both listeners (base host and poll host) get the same context.
 *
 * @example
 * ```ts
 * registerStartRoute(baseApp, context);
 * registerGetRunRoute(pollApp, context);
 * ```
 */
export interface EmulatorContext {
  apiKey: string;
  spells: ReadonlyMap<string, Spell>;
  store: RunStore;
  faults: FaultInjector;
  stats: EmulatorStats;
  waitTimeoutMs: number;
  /** Fill `stats.bulkCreatedByKey` (see `EmulatorOptions.countBulkInputs`). */
  countBulkInputs: boolean;
  /** Requests whose connection is destroyed after the work is done (dropPhase "after"). */
  dropAfterWork: WeakSet<FastifyRequest>;
  /** Requests answered with this status after their runs were created (`rateAnswerAfterStart`). */
  answerAfterWork: WeakMap<FastifyRequest, number>;
  /** Aborts of wait-mode requests still waiting, run by close(). */
  pendingWaits: Set<() => void>;
  /** A new single run id, as a string ("run_<n>_<hex>") or a number, per the runIdType fault. */
  newRunId(): string | number;
  /** A new bulk group id ("bulk_<n>_<hex>"). */
  newGroupId(): string;
}
