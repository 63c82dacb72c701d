import type { Observable } from "rxjs";
import type { PromiseBulkOptions } from "./PromiseBulkOptions.js";
import type { PromiseRunOptions } from "./PromiseRunOptions.js";
import type {
  BulkOptions,
  BulkRow,
  BulkRunEntry,
  BulkSnapshot,
  RunOptions,
  RunSnapshot,
  SpellInputs,
  SpellOutputs,
} from "./types.js";

/**
 * The calls of a `SpellClient` that a `Spell` forwards, by spell id. Declared here rather than
 * taken from client.ts, which builds every `Spell` and so would import Spell.ts back; the
 * compiler checks that `SpellClient` has them wherever it hands itself to a `Spell`.
 *
 * ## Example
 * ```ts
 * const calls: SpellCalls = new SpellClient({ baseUrl, pollBaseUrl, apiKey });
 * calls.runOutputs("echo", { text: "hi" });
 * ```
 */
export interface SpellCalls {
  /** `SpellClient.run`. */
  run(spellId: string, inputs: SpellInputs, options?: RunOptions): Observable<RunSnapshot>;
  /** `SpellClient.bulk`. */
  bulk(
    spellId: string,
    inputsList: readonly SpellInputs[],
    options?: BulkOptions
  ): Observable<BulkSnapshot>;
  /** `SpellClient.runOutputs`. */
  runOutputs(
    spellId: string,
    inputs: SpellInputs,
    options?: PromiseRunOptions
  ): Promise<SpellOutputs>;
  /** `SpellClient.bulkOutputs`. */
  bulkOutputs(
    spellId: string,
    inputsList: readonly SpellInputs[],
    options?: PromiseBulkOptions
  ): Promise<BulkRunEntry[]>;
  /** `SpellClient.bulkRows`. */
  bulkRows(
    spellId: string,
    inputsList: readonly SpellInputs[],
    options?: BulkOptions
  ): AsyncIterable<BulkRow>;
}
