import { SpellApi } from "../http/SpellApi.js";
import { ConcurrencyLimiter } from "../util/ConcurrencyLimiter.js";
import { RunDurationEstimator } from "./RunDurationEstimator.js";
import { DEFAULT_POLL } from "../operators/pollUntilDone.js";
import { DEFAULT_MAX_RUNS_IN_PROGRESS } from "./clientDefaults.js";
import type { ClientSettings } from "./ClientSettings.js";
import type { RunBatcher } from "./RunBatcher.js";
import type { RunReuse } from "./RunReuse.js";
import type { PollOptions, SpellClientOptions } from "../types.js";

/**
 * What one `SpellClient` is made of: its settings (checked when the client is built), its
 * transport, limits and clocks (built when its core loads, on the first call), and the parts of
 * optional features (reuse, batching), built with their modules on first use. The client's
 * calls and the modules loaded on demand share it.
 *
 * ## Example
 * ```ts
 * const parts = clientParts(clientSettings(options), options);
 * startAndPollRun(parts.api, "echo", {}, parts.poll, parts.scheduler);
 * ```
 * @internal
 */
export interface ClientParts extends ClientSettings {
  readonly api: SpellApi;
  /** `maxRunsInProgress`: single runs and bulk chunks started and unfinished. */
  readonly limiter: ConcurrencyLimiter;
  readonly poll: Required<PollOptions>;
  /** Per spell, how long this client saw its polled runs take. */
  readonly durations: RunDurationEstimator;
  /** Runs in flight and the result store, built on the first run or bulk with reuse. */
  reuse?: RunReuse;
  /** The batcher, built on the first batched run. */
  batcher?: RunBatcher;
}

/**
 * Completes a client's settings into its parts: the transport (holding the key), the run slots,
 * the poll settings and the duration estimates. The settings object itself becomes the parts,
 * so the load order noted on it before stays the one its calls share.
 *
 * ## Example
 * ```ts
 * const parts = clientParts(clientSettings(options), options);
 * ```
 * @param settings the client's checked settings
 * @param options the client's options, the key included
 * @return the client's parts (the same object as `settings`)
 * @internal
 */
export function clientParts(settings: ClientSettings, options: SpellClientOptions): ClientParts {
  return Object.assign(settings, {
    api: new SpellApi(options),
    limiter: new ConcurrencyLimiter(
      options.maxRunsInProgress ?? DEFAULT_MAX_RUNS_IN_PROGRESS,
      "maxRunsInProgress"
    ),
    poll: { ...DEFAULT_POLL, ...options.poll },
    durations: new RunDurationEstimator(),
  });
}
