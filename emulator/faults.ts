import { createPrng } from "./createPrng.js";
import type { Endpoint, FaultOptions, LazyBulkOptions } from "./faultOptions.js";

/** Resolved lazy-bulk settings of a new group. */
export interface LazyBulkSettings {
  groupVisibleAfterMs: number;
  runsPerPoll: number;
}

/**
 * Decides which faults hit a request. Probabilities are drawn from a PRNG seeded by
 * `faults.seed`, and only for faults that are on, so the same seed and the same request order
 * give the same faults. `endpoints` filters the drawn faults and latency; the modes
 * (`runIdType`, `lazyBulk`, `extraFields`) apply everywhere.
 *
 * @example
 * ```ts
 * const faults = new FaultInjector({ rate503: 0.5, seed: 3 });
 * if (faults.roll("start", faults.options.rate503)) reply.code(503);
 * ```
 */
export class FaultInjector {
  private current: Readonly<FaultOptions> = {};
  private random: () => number = createPrng(1);

  constructor(options: FaultOptions = {}) {
    this.set(options);
  }

  /** The faults in force. */
  get options(): Readonly<FaultOptions> {
    return this.current;
  }

  /** Replaces every fault (unset ones are off) and reseeds the PRNG. */
  set(options: FaultOptions): void {
    this.current = { ...options };
    this.random = createPrng(options.seed ?? 1);
  }

  /** Whether drawn faults and latency apply to an endpoint. */
  appliesTo(endpoint: Endpoint): boolean {
    return this.current.endpoints === undefined || this.current.endpoints.includes(endpoint);
  }

  /** Draws a fault of the given probability for an endpoint. */
  roll(endpoint: Endpoint, probability: number | undefined): boolean {
    if (!probability || probability <= 0 || !this.appliesTo(endpoint)) return false;
    return this.random() < probability;
  }

  /** The lazy-bulk settings for a new group of `count` runs, or undefined when off. */
  lazyBulk(count: number): LazyBulkSettings | undefined {
    const lazy = this.current.lazyBulk;
    if (!lazy) return undefined;
    const settings: LazyBulkOptions = lazy === true ? {} : lazy;
    return {
      groupVisibleAfterMs: settings.groupVisibleAfterMs ?? 300,
      runsPerPoll: settings.runsPerPoll ?? Math.max(1, Math.ceil(count / 4)),
    };
  }
}
