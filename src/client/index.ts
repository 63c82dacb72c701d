/**
 * `spellrun/client`: the client alone, for a browser page that wants the smallest first load.
 *
 * The same `SpellClient`, `Spell`, errors and types as the main entry (the very same modules:
 * an error thrown by one is `instanceof` the class from the other), without the public operators
 * and the bulk-job engine. A bundler that places whole files in chunks (esbuild) puts every file
 * the main entry names in the page's first chunk when any lazy part of the client uses it; from
 * here the first load is the client and its option checks, and the rest of the client loads
 * with its first call. Node programs and bundlers that split by module (webpack, Rollup) lose
 * nothing by importing from `spellrun`.
 *
 * ## Example
 * ```ts
 * import { SpellClient, isSpellError } from "spellrun/client";
 * const client = new SpellClient({
 *   apiKey: "k",
 *   baseUrl: "https://api.example",
 *   pollBaseUrl: "https://poll.example",
 * });
 * client.runOutputs("summarize", { text: "A long text" }).catch((error: unknown) => {
 *   if (isSpellError(error)) console.warn(error.message);
 * });
 * ```
 * @packageDocumentation
 */
export { SpellClient, type PromiseBulkOptions, type PromiseRunOptions } from "../SpellClient.js";
export { Spell } from "../Spell.js";
export { isSpellError } from "../errors/isSpellError.js";
export { SpellError } from "../errors/SpellError.js";
export { SpellHttpError } from "../errors/SpellHttpError.js";
export { SpellRunError } from "../errors/SpellRunError.js";
export { SpellRunExpiredError } from "../errors/SpellRunExpiredError.js";
export { SpellTimeoutError } from "../errors/SpellTimeoutError.js";
export { SpellCallTimeoutError } from "../errors/SpellCallTimeoutError.js";
export { SpellNetworkError } from "../errors/SpellNetworkError.js";
export { SpellProtocolError } from "../errors/SpellProtocolError.js";
export { SpellResponseTooLargeError } from "../errors/SpellResponseTooLargeError.js";
export { SpellRequestTooLargeError } from "../errors/SpellRequestTooLargeError.js";
export { SpellCodeLoadError } from "../errors/SpellCodeLoadError.js";
export { SpellPollLimitError, type SpellPollLimitDetails } from "../errors/SpellPollLimitError.js";
export type { SpellLogEvent, SpellLogger, SpellLogRequest } from "../SpellLogEvent.js";
export type { ConnectionCheck, ConnectionProblem } from "../ConnectionCheck.js";
export type { RunState, RunStateCounts } from "../RunState.js";
export type { Endpoint, HttpMethod } from "../Endpoint.js";
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
  RequestTimeouts,
  SpellClientOptions,
  SpellInputs,
  SpellOutputs,
} from "../types.js";
