/**
 * The endpoints of the Spell Run interface, as named in emulator stats and fault filters.
 *
 * @example
 * ```ts
 * const reads: Endpoint[] = ["getRun", "getBulkRuns"];
 * ```
 */
export type Endpoint = "start" | "getRun" | "bulkStart" | "cancelBulk" | "getBulkRuns";

/** Every {@link Endpoint}, in the order the interface document lists them. */
export const ENDPOINTS: readonly Endpoint[] = [
  "start",
  "getRun",
  "bulkStart",
  "cancelBulk",
  "getBulkRuns",
];

/**
 * Lazy-bulk settings: bulk runs come into existence progressively.
 *
 * @example
 * ```ts
 * const lazy: LazyBulkOptions = { groupVisibleAfterMs: 200, runsPerPoll: 10 };
 * ```
 */
export interface LazyBulkOptions {
  /** Wall-clock ms after bulkStart during which getBulkRuns answers 404. @default 300 */
  groupVisibleAfterMs?: number;
  /** How many more runs each getBulkRuns reveals once visible. @default ceil(total / 4) */
  runsPerPoll?: number;
}

/**
 * Fault injection for tests and benchmarks. Every fault is off by default. Faults never apply
 * to the control API (`/_emulator/*`) nor to CORS preflights. A 429 or 503 means nothing was
 * started or changed.
 *
 * @example
 * ```ts
 * const emulator = await startEmulator({ faults: { rate429: 0.3, retryAfterSeconds: 1, seed: 7 } });
 * ```
 */
export interface FaultOptions {
  /** Probability 0..1 of a 429 with a `Retry-After` header. @default 0 */
  rate429?: number;
  /** Value of `Retry-After` (seconds) on a 429. @default 1 */
  retryAfterSeconds?: number;
  /** Probability of a 503 (the run is NOT started). @default 0 */
  rate503?: number;
  /** Probability of a 500 on getRun / getBulkRuns. @default 0 */
  rate500OnReads?: number;
  /** Added latency (ms) on every request. @default 0 */
  latencyMs?: number;
  /** Probability the connection is destroyed without a response. @default 0 */
  dropRate?: number;
  /**
   * When a dropped start / bulkStart / cancelBulk loses its connection: `"after"` the run was
   * created (or the group cancelled), which is the dangerous case for clients that retry, or
   * `"before"` anything happened. @default "after"
   */
  dropPhase?: "before" | "after";
  /** Which endpoints faults apply to. @default all */
  endpoints?: Endpoint[];
  /** JSON type of single run ids. @default "string" */
  runIdType?: "string" | "number";
  /**
   * Bulk runs come into existence progressively: getBulkRuns 404s until the group is visible,
   * then returns a growing prefix of the runs. `true` uses the defaults of {@link LazyBulkOptions}.
   */
  lazyBulk?: boolean | LazyBulkOptions;
  /** Add unknown extra fields to every response body (and to every bulk run entry). */
  extraFields?: boolean;
  /**
   * Probability that a start or bulkStart creates its runs and then answers `answerAfterStartStatus`
   * instead of the id: a proxy time-out or a crash after the work, the case where a client must not
   * send the rows again. @default 0
   */
  rateAnswerAfterStart?: number;
  /** The status of those answers (408, 500, 502, 504, …). @default 500 */
  answerAfterStartStatus?: number;
  /**
   * Bodies declared (Content-Length) above this many bytes get a 413 before they are read, as a
   * proxy or service with a small limit would answer. @default none (the listener's own limit)
   */
  bodyLimitBytes?: number;
  /** Probability that getBulkRuns shows an unfinished run in a state the interface does not name ("queued"). @default 0 */
  rateUnknownState?: number;
  /** Probability that a getBulkRuns answer leaves out its last entry (fewer entries than inputs). @default 0 */
  rateShortBulkRuns?: number;
  /** Seed of the fault PRNG, so a faulty session is reproducible. @default 1 */
  seed?: number;
}
