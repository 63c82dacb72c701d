import { asyncScheduler, type SchedulerLike } from "rxjs";
import { SpellApi } from "../http/SpellApi.js";
import { ConcurrencyLimiter } from "../util/ConcurrencyLimiter.js";
import { RunDurationEstimator } from "./RunDurationEstimator.js";
import { DEFAULT_POLL } from "../operators/pollUntilDone.js";
import { canonicalJson } from "../util/canonicalJson.js";
import {
  batchSettingsOf,
  bulkChunkLimits,
  DEFAULT_MAX_RUNS_IN_PROGRESS,
} from "./clientDefaults.js";
import type { BatchSettings, RunBatcher } from "./RunBatcher.js";
import type { RunReuse } from "./RunReuse.js";
import type { PollOptions, SpellClientOptions, SpellInputs } from "../types.js";

/**
 * What one `SpellClient` is made of: its transport, limits, clocks and settings, built and
 * checked when the client is built, and the parts of optional features (reuse, batching), built
 * with their modules on first use. The client's calls and the modules loaded on demand share it.
 *
 * ## Example
 * ```ts
 * const parts = clientParts({ apiKey, baseUrl, pollBaseUrl });
 * startAndPollRun(parts.api, "echo", {}, parts.poll, parts.scheduler);
 * ```
 * @internal
 */
export interface ClientParts {
  readonly api: SpellApi;
  /** `maxRunsInProgress`: single runs and bulk chunks started and unfinished. */
  readonly limiter: ConcurrencyLimiter;
  readonly scheduler: SchedulerLike;
  readonly poll: Required<PollOptions>;
  /** Per spell, how long this client saw its polled runs take. */
  readonly durations: RunDurationEstimator;
  readonly bulkChunkSize: number;
  readonly maxBulkBodyBytes: number;
  /** The options without the key (which only the transport holds, in private fields). */
  readonly options: Omit<SpellClientOptions, "apiKey">;
  /** How polling-mode runs are batched; `undefined` when `batch` is off. */
  readonly batchSettings: BatchSettings | undefined;
  /** The stable reuse key of a run (see `SpellClient.reuseKey`). */
  readonly reuseKey: (spellId: string, inputs: SpellInputs) => string;
  /** Runs in flight and the result store, built on the first run or bulk with reuse. */
  reuse?: RunReuse;
  /** The batcher, built on the first batched run. */
  batcher?: RunBatcher;
  /**
   * Set while a call waits for a module loaded on first use: calls subscribed meanwhile wait
   * for it, so every call keeps its place (see `inLoadOrder`).
   */
  loading?: Promise<void>;
}

/**
 * Builds and checks the parts of a client from its options: the key and the service URLs (by
 * the transport), the limits and the batch settings, each failing with a `SpellError` that
 * names the option.
 *
 * ## Example
 * ```ts
 * const parts = clientParts({ apiKey, baseUrl, pollBaseUrl, maxRunsInProgress: 16 });
 * ```
 * @param options the client's options
 * @return the client's parts
 * @throws SpellError on a bad key, URL or limit
 */
export function clientParts(options: SpellClientOptions): ClientParts {
  const api = new SpellApi(options);
  const { apiKey: _apiKey, ...settings } = options;
  const { bulkChunkSize, maxBulkBodyBytes } = bulkChunkLimits(options);
  // canonicalJson([service, spellId, inputs]), with the service's part written once (the
  // transport normalised it: no trailing slash).
  const keyPrefix = `[${canonicalJson(api.baseUrl)},`;
  return {
    api,
    limiter: new ConcurrencyLimiter(
      options.maxRunsInProgress ?? DEFAULT_MAX_RUNS_IN_PROGRESS,
      "maxRunsInProgress"
    ),
    scheduler: options.scheduler ?? asyncScheduler,
    poll: { ...DEFAULT_POLL, ...options.poll },
    durations: new RunDurationEstimator(),
    bulkChunkSize,
    maxBulkBodyBytes,
    options: settings,
    // Checked here, not when the batcher is loaded on the first batched run.
    batchSettings: batchSettingsOf(options.batch, bulkChunkSize),
    reuseKey: (spellId, inputs) =>
      `${keyPrefix}${canonicalJson(spellId)},${canonicalJson(inputs)}]`,
  };
}
