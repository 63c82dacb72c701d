import type { RunOptions, RunSnapshot } from "./types.js";

/**
 * Options of `runOutputs`: the run options (an `AbortSignal`, a time limit, retry timing among
 * them) plus a callback told of each snapshot before the promise settles.
 *
 * ## Example
 * ```ts
 * await client.runOutputs("summarize", { text }, { wait: false, signal: AbortSignal.timeout(60_000) });
 * ```
 */
export interface PromiseRunOptions extends RunOptions {
  /** Told of every snapshot (`inProgress` with the run id, then the last one). @default none */
  onProgress?: ((snapshot: RunSnapshot) => void) | undefined;
}
