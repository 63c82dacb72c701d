import type { Observable } from "rxjs";
import type { PromiseBulkOptions } from "./PromiseBulkOptions.js";
import type { PromiseRunOptions } from "./PromiseRunOptions.js";
import type { SpellCalls } from "./SpellCalls.js";
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
 * One spell of a `SpellClient` with the types of its inputs and outputs (from
 * `client.spell<In, Out>(id)`): the client's calls, typed. The types are the caller's word for
 * what the spell takes and gives; nothing is checked at run time.
 *
 * ## Example
 * ```ts
 * const echo = client.spell<{ text: string }, { text: string }>("echo");
 * echo.run({ text: "hi" }).subscribe((snapshot) => {
 *   if (snapshot.state === "success") console.log(snapshot.outputs.text.toUpperCase());
 * });
 * ```
 */
export class Spell<In extends SpellInputs = SpellInputs, Out extends object = SpellOutputs> {
  /**
   * @param client the client that sends the runs
   * @param spellId the spell's id
   */
  constructor(
    private readonly client: SpellCalls,
    readonly spellId: string
  ) {}

  /**
   * `SpellClient.run` of this spell.
   *
   * ## Example
   * ```ts
   * echo.run({ text: "hi" }, { wait: false }).subscribe((snapshot) => console.log(snapshot.state));
   * ```
   * @param inputs the spell's inputs
   * @param options as for `SpellClient.run`
   * @return a cold Observable of snapshots, `outputs` typed on success
   */
  run(inputs: In, options?: RunOptions): Observable<RunSnapshot<Out>> {
    return this.client.run(this.spellId, inputs, options) as Observable<RunSnapshot<Out>>;
  }

  /**
   * `SpellClient.bulk` of this spell.
   *
   * ## Example
   * ```ts
   * echo.bulk([{ text: "a" }, { text: "b" }]).subscribe((snapshot) => console.log(snapshot.counts));
   * ```
   * @param inputsList one inputs object per run (a readonly array is fine)
   * @param options as for `SpellClient.bulk`
   * @return a cold Observable of combined snapshots, each row's `outputs` typed on success
   */
  bulk(inputsList: readonly In[], options?: BulkOptions): Observable<BulkSnapshot<Out>> {
    return this.client.bulk(this.spellId, inputsList, options) as Observable<BulkSnapshot<Out>>;
  }

  /**
   * `SpellClient.runOutputs` of this spell.
   *
   * ## Example
   * ```ts
   * const { text } = await echo.runOutputs({ text: "hi" });
   * ```
   * @param inputs the spell's inputs
   * @param options as for `SpellClient.runOutputs`
   * @return the outputs of the successful run
   */
  runOutputs(inputs: In, options?: PromiseRunOptions): Promise<Out> {
    return this.client.runOutputs(this.spellId, inputs, options) as Promise<Out>;
  }

  /**
   * `SpellClient.bulkOutputs` of this spell.
   *
   * ## Example
   * ```ts
   * const rows = await echo.bulkOutputs([{ text: "a" }, { text: "b" }]);
   * ```
   * @param inputsList one inputs object per run
   * @param options as for `SpellClient.bulkOutputs`
   * @return the rows of the done snapshot, `outputs` typed on success
   */
  bulkOutputs(
    inputsList: readonly In[],
    options?: PromiseBulkOptions<Out>
  ): Promise<BulkRunEntry<Out>[]> {
    return this.client.bulkOutputs(
      this.spellId,
      inputsList,
      options as PromiseBulkOptions
    ) as Promise<BulkRunEntry<Out>[]>;
  }

  /**
   * `SpellClient.bulkRows` of this spell.
   *
   * ## Example
   * ```ts
   * for await (const row of echo.bulkRows([{ text: "a" }, { text: "b" }])) console.log(row.index);
   * ```
   * @param inputsList one inputs object per run
   * @param options as for `SpellClient.bulk`
   * @return the finished rows, each once, `outputs` typed on success
   */
  bulkRows(inputsList: readonly In[], options?: BulkOptions): AsyncIterable<BulkRow<Out>> {
    return this.client.bulkRows(this.spellId, inputsList, options) as AsyncIterable<BulkRow<Out>>;
  }
}
