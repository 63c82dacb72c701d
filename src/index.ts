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
export { SpellClient, type PromiseBulkOptions, type PromiseRunOptions } from "./SpellClient.js";
export { Spell } from "./Spell.js";
export { MemoryResultStore } from "./MemoryResultStore.js";
export { countRunStates } from "./countRunStates.js";
export { failureReason } from "./failureReason.js";
export { redactKey } from "./http/redactKey.js";
export { formatLogEvent } from "./formatLogEvent.js";
export type { SpellLogEvent, SpellLogger, SpellLogRequest } from "./SpellLogEvent.js";
export type { ConnectionCheck, ConnectionProblem } from "./ConnectionCheck.js";
export { TERMINAL_STATES, type RunState, type RunStateCounts } from "./RunState.js";
export type { Endpoint, HttpMethod } from "./Endpoint.js";
export { SERVICE_ENDPOINTS, FORWARDING_PREFIXES, endpointPath } from "./http/serviceEndpoints.js";
export type {
  BulkResumeToken,
  BulkRow,
  BulkRunEntry,
  BulkRunEntryFields,
  BulkSnapshot,
  PollOptions,
  ResultStore,
  RetryOptions,
  ReuseOptions,
  BatchOptions,
  BulkOptions,
  RunOptions,
  RunSnapshot,
  RunSnapshotFields,
  SpellClientOptions,
  SpellInputs,
  SpellOutputs,
} from "./types.js";
export {
  parseServiceUrl,
  type ParsedServiceUrl,
  type ServiceUrlProblem,
} from "./http/parseServiceUrl.js";
export { SpellError } from "./errors/SpellError.js";
export { isSpellError } from "./errors/isSpellError.js";
export { SpellHttpError } from "./errors/SpellHttpError.js";
export { SpellRunError } from "./errors/SpellRunError.js";
export { SpellRunExpiredError } from "./errors/SpellRunExpiredError.js";
export { SpellTimeoutError } from "./errors/SpellTimeoutError.js";
export { SpellCallTimeoutError } from "./errors/SpellCallTimeoutError.js";
export { SpellNetworkError } from "./errors/SpellNetworkError.js";
export { SpellProtocolError } from "./errors/SpellProtocolError.js";
export { SpellResponseTooLargeError } from "./errors/SpellResponseTooLargeError.js";
export { SpellRequestTooLargeError } from "./errors/SpellRequestTooLargeError.js";
export { SpellCodeLoadError } from "./errors/SpellCodeLoadError.js";
export { SpellPollLimitError, type SpellPollLimitDetails } from "./errors/SpellPollLimitError.js";
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
