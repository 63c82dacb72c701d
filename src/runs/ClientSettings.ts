// A file the client loads before its first call: rxjs from its own files, not from "rxjs" (see
// "The client's first load" in docs/development.md).
import { asyncScheduler } from "rxjs/internal/scheduler/async";
import type { SchedulerLike } from "rxjs";
import { checkApiKey } from "../http/checkApiKey.js";
import { serviceUrl } from "../http/serviceUrl.js";
import { DEFAULT_MAX_IN_FLIGHT } from "../http/transportDefaults.js";
import { canonicalJson } from "../util/canonicalJson.js";
import { checkLimit } from "../util/checkLimit.js";
import {
  batchSettingsOf,
  bulkChunkLimits,
  DEFAULT_MAX_RUNS_IN_PROGRESS,
} from "./clientDefaults.js";
import type { LoadOrder } from "./inLoadOrder.js";
import type { BatchSettings } from "./RunBatcher.js";
import type { SpellClientOptions, SpellInputs } from "../types.js";

/**
 * What a `SpellClient` knows from the moment it is built, before its core (transport, limits,
 * runs) has loaded: the checked settings, the reuse key and the load order of its calls. The
 * core completes this same object into the client's `ClientParts`.
 *
 * ## Example
 * ```ts
 * const settings = clientSettings({ apiKey, baseUrl, pollBaseUrl });
 * settings.reuseKey("echo", { text: "hi" });
 * ```
 * @internal
 */
export interface ClientSettings extends LoadOrder {
  readonly scheduler: SchedulerLike;
  readonly bulkChunkSize: number;
  readonly maxBulkBodyBytes: number;
  /** The options without the key (which only the transport holds, in private fields). */
  readonly options: Omit<SpellClientOptions, "apiKey">;
  /** How polling-mode runs are batched; `undefined` when `batch` is off. */
  readonly batchSettings: BatchSettings | undefined;
  /** The stable reuse key of a run (see `SpellClient.reuseKey`). */
  readonly reuseKey: (spellId: string, inputs: SpellInputs) => string;
}

/**
 * Checks a client's options, in the order the transport and the limits read them (the key, the
 * service URLs, `maxInFlight`, the bulk limits, `maxRunsInProgress`, `batch`), each failing with
 * a `SpellError` that names the option, before anything is loaded or sent.
 *
 * ## Example
 * ```ts
 * const settings = clientSettings({ apiKey, baseUrl, pollBaseUrl, maxRunsInProgress: 16 });
 * ```
 * @param options the client's options
 * @return the client's settings
 * @throws SpellError on a bad key, URL or limit
 * @internal
 */
export function clientSettings(options: SpellClientOptions): ClientSettings {
  checkApiKey(options.apiKey);
  const baseUrl = serviceUrl("baseUrl", options.baseUrl);
  serviceUrl("pollBaseUrl", options.pollBaseUrl);
  checkLimit(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT, "maxInFlight");
  const { apiKey: _apiKey, ...settings } = options;
  const { bulkChunkSize, maxBulkBodyBytes } = bulkChunkLimits(options);
  checkLimit(options.maxRunsInProgress ?? DEFAULT_MAX_RUNS_IN_PROGRESS, "maxRunsInProgress");
  // canonicalJson([service, spellId, inputs]), with the service's part written once (normalised
  // as the transport sends it: no trailing slash).
  const keyPrefix = `[${canonicalJson(baseUrl)},`;
  return {
    scheduler: options.scheduler ?? asyncScheduler,
    bulkChunkSize,
    maxBulkBodyBytes,
    options: settings,
    // Checked here, not when the batcher is loaded on the first batched run.
    batchSettings: batchSettingsOf(options.batch, bulkChunkSize),
    reuseKey: (spellId, inputs) =>
      `${keyPrefix}${canonicalJson(spellId)},${canonicalJson(inputs)}]`,
  };
}
