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
export * from "./MemoryResultStore.js";
export * from "./countRunStates.js";
export * from "./failureReason.js";
export * from "./http/redactKey.js";
export * from "./formatLogEvent.js";
export * from "./RunState.js";
export * from "./http/serviceEndpoints.js";
export * from "./http/parseServiceUrl.js";
export * from "./operators/pollUntilDone.js";
export * from "./operators/backoffSchedule.js";
export * from "./operators/expectedEndSchedule.js";
export * from "./operators/retryTransient.js";
export * from "./operators/shouldRetry.js";
export * from "./isRetryAfterNoAnswer.js";
export * from "./bulkJob/index.js";
