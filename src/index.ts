/**
 * spellrun: run Spell Run spells from TypeScript, every run an RxJS Observable.
 *
 * ## Example
 * ```ts
 * import { SpellClient } from "spellrun";
 * const client = new SpellClient({ apiKey, baseUrl, pollBaseUrl });
 * client.run("summarize", { text }).subscribe((s) => console.log(s.outputs));
 * ```
 * @packageDocumentation
 */
export * from "./client/index.js";
export { MemoryResultStore } from "./MemoryResultStore.js";
export { countRunStates } from "./countRunStates.js";
export { failureReason } from "./failureReason.js";
export { redactKey } from "./http/redactKey.js";
export { formatLogEvent } from "./formatLogEvent.js";
export { TERMINAL_STATES, type RunState, type RunStateCounts } from "./RunState.js";
export type { Endpoint, HttpMethod } from "./Endpoint.js";
export { SERVICE_ENDPOINTS, FORWARDING_PREFIXES, endpointPath } from "./http/serviceEndpoints.js";
export {
  parseServiceUrl,
  type ParsedServiceUrl,
  type ServiceUrlProblem,
} from "./http/parseServiceUrl.js";
export {
  pollUntilDone,
  pollIntervalMs,
  DEFAULT_POLL,
  type PollControl,
} from "./operators/pollUntilDone.js";
export { backoffSchedule, type PollSchedule, type PollTick } from "./operators/backoffSchedule.js";
export { expectedEndSchedule, type ExpectedEnd } from "./operators/expectedEndSchedule.js";
export { retryTransient, retryDelayMs, DEFAULT_RETRY } from "./operators/retryTransient.js";
export { shouldRetry } from "./operators/shouldRetry.js";
export { isRetryAfterNoAnswer } from "./isRetryAfterNoAnswer.js";
export * from "./bulkJob/index.js";
