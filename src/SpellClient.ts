import type { Observable } from "rxjs";
import type { ConnectionCheck } from "./ConnectionCheck.js";
import { clientSettings, type ClientSettings } from "./runs/ClientSettings.js";
import { controlCall } from "./operators/controlCall.js";
import { lastSnapshot } from "./util/lastSnapshot.js";
import { lazyModule } from "./util/lazyModule.js";
import { clientCoreAccess, type ClientCoreAccess } from "./runs/clientCoreAccess.js";
import { withModule } from "./runs/inLoadOrder.js";
import type { PromiseRunOptions } from "./PromiseRunOptions.js";
import type { PromiseBulkOptions } from "./PromiseBulkOptions.js";
import type {
  BulkOptions,
  BulkResumeToken,
  BulkRow,
  BulkRunEntry,
  BulkSnapshot,
  RunOptions,
  RunSnapshot,
  SpellClientOptions,
  SpellInputs,
  SpellOutputs,
} from "./types.js";
import { Spell } from "./Spell.js";

/** The bulk machinery, loaded with the first `bulk` or `resumeBulk`. */
const bulkModule = lazyModule("./runs/clientBulk.js", () => import("./runs/clientBulk.js"));

export type { PromiseRunOptions } from "./PromiseRunOptions.js";
export type { PromiseBulkOptions } from "./PromiseBulkOptions.js";

/**
 * A client of the Spell Run service where every run is a cold Observable: nothing is sent until
 * you subscribe, and unsubscribing stops everything (requests aborted, timers cleared, unfinished
 * bulk groups cancelled). Building it checks the options at once; its core (transport, run
 * slots, single runs) loads with the first call (or `preload()`), bulk, reuse and batching with
 * their first use.
 *
 * ## Example
 * ```ts
 * const client = new SpellClient({ apiKey, baseUrl, pollBaseUrl });
 * client.run("summarize", { text: "A long text" }, { wait: false }).subscribe({
 *   next: (snapshot) => console.log(snapshot.state, snapshot.outputs),
 *   error: (error) => console.error(error.message),
 * });
 * ```
 */
export class SpellClient {
  /** Checked settings and the load order of the calls; completed into the parts by the core. */
  private readonly settings: ClientSettings;
  /** The core (transport, limits, single runs), loaded with the first call; holds the key. */
  private readonly core: ClientCoreAccess;

  /**
   * @param options the service addresses, the key and the client's settings
   * @throws SpellError on a bad key, service URL or limit (nothing is loaded or sent)
   */
  constructor(options: SpellClientOptions) {
    this.settings = clientSettings(options);
    this.core = clientCoreAccess(this.settings, options);
  }

  /**
   * Loads the client's core (transport, run slots, single runs) now, which its first call would
   * load otherwise: for a page that wants its first run to start without that wait (call it
   * while the page is idle), or a marble spec (a `TestScheduler` drives no load). Sends nothing.
   * Bulk, reuse and batching still load with their first use.
   *
   * ## Example
   * ```ts
   * const client = new SpellClient({ apiKey, baseUrl, pollBaseUrl });
   * void client.preload().catch(() => undefined); // a failed load is tried again by the first call
   * ```
   * @return resolves once the core is loaded
   * @throws SpellCodeLoadError (rejects) when the core failed to load; the next call loads it again
   */
  preload(): Promise<void> {
    return this.core.parts().then(() => undefined);
  }

  /**
   * Runs a spell once.
   *
   * Wait mode (`wait: true`, the default) sends one start request and emits one `success`
   * snapshot; polling mode (`wait: false`) emits `inProgress` with the run id as soon as the
   * service answers, then a snapshot on every change of state, completing after `success`.
   * A run ending in `failure` or `error` errors with `SpellRunError`.
   *
   * ```
   * run(id, inputs, { wait: false }):  ──i────────────s|     (i: inProgress, s: success)
   * run(id, inputs, { wait: true }):   ───────────────s|
   * ```
   *
   * With reuse on, identical `(service, spellId, inputs)` subscriptions share one run (the first
   * subscriber's mode decides; later ones get the latest snapshot first), it is cancelled only
   * when the last subscriber leaves, and a success is answered from the store during its TTL.
   *
   * With `batch` on (see `BatchOptions`), polling-mode runs of one spell arriving close together
   * go out as one `bulkStart` and are polled with `getBulkRuns`; each subscriber still sees only
   * its own run (without `runId`) and its own errors. Reuse applies first, so identical calls in
   * a batch share one row and remembered results send nothing.
   *
   * ## Example
   * ```ts
   * client.run("sentiment", { text: "I love it" }).subscribe((s) => console.log(s.outputs.label));
   * ```
   * @param spellId the spell's id
   * @param inputs the spell's inputs
   * @param options wait or poll; reuse; the call's own `signal`, `timeoutMs` and `retry`
   * @return a cold Observable of snapshots
   */
  run(spellId: string, inputs: SpellInputs, options: RunOptions = {}): Observable<RunSnapshot> {
    return controlCall(
      this.core.call((parts, { clientRun }) => clientRun(parts, spellId, inputs, options)),
      options,
      `run of "${spellId}"`,
      this.settings.scheduler
    );
  }

  /**
   * Runs a spell over many inputs. `runs[i]` of every snapshot belongs to `inputsList[i]`; rows
   * not visible yet are `pending`. Emits on every change, completes after the `done` snapshot.
   * Lists longer than `bulkChunkSize`, or whose bulkStart body would exceed `maxBulkBodyBytes`,
   * go out as several bulk runs (`groupIds`), one run slot each. Unsubscribing before done cancels every unfinished group exactly once.
   *
   * ```
   * bulk("echo", rows):  P──S──S───S──D|     (P: all pending, D: done)
   * unsubscribe:         P──S─!              → one cancelBulk per unfinished group
   * ```
   *
   * ## Example
   * ```ts
   * client.bulk("echo", [{ i: 0 }, { i: 1 }]).subscribe((s) => console.log(s.counts, s.done));
   * ```
   * @param spellId the spell's id
   * @param inputsList one inputs object per run
   * @param options `reuse: true` answers remembered rows from the store and sends identical
   *   rows once; `detach` completes the stream without cancelling; `beforeStart` gates the
   *   sending; the call's own `signal`, `timeoutMs` and `retry` (see `BulkOptions`)
   * @return a cold Observable of combined snapshots
   */
  bulk(
    spellId: string,
    inputsList: readonly SpellInputs[],
    options: BulkOptions = {}
  ): Observable<BulkSnapshot> {
    const bulk$ = this.core.call((parts) =>
      withModule(parts, bulkModule, ({ clientBulk }) =>
        clientBulk(parts, spellId, inputsList, options)
      )
    );
    return controlCall(bulk$, options, `bulk of "${spellId}"`, this.settings.scheduler);
  }

  /**
   * A handle on one spell with the types of its inputs and outputs: its `run`, `bulk` and
   * promise helpers take `In` and give `Out` on success, with no cast at each read. The types
   * are your word for it (nothing is checked at run time); without them it takes any object
   * and gives `Record<string, unknown>`.
   *
   * ## Example
   * ```ts
   * interface Review {
   *   text: string;
   * }
   * interface Sentiment {
   *   label: "positive" | "negative";
   *   score: number;
   * }
   * const sentiment = client.spell<Review, Sentiment>("sentiment");
   * const { label } = await sentiment.runOutputs({ text: "I love it" });
   * ```
   * @param spellId the spell's id
   * @return a typed handle calling this client
   */
  spell<In extends SpellInputs = SpellInputs, Out extends object = SpellOutputs>(
    spellId: string
  ): Spell<In, Out> {
    return new Spell<In, Out>(this, spellId);
  }

  /**
   * Re-attaches to a single run started earlier in polling mode (e.g. after a reload): polls it
   * at once, then on the usual schedule, with the same snapshots and errors as `run`.
   *
   * ## Example
   * ```ts
   * client.resumeRun(localStorage.getItem("runId")!).subscribe(console.log);
   * ```
   * @param runId the run id from an earlier snapshot
   * @return a cold Observable of snapshots
   */
  resumeRun(runId: string | number): Observable<RunSnapshot> {
    return this.core.call(({ api, limiter, poll, scheduler }, { resumedRun }) =>
      resumedRun(api, limiter, poll, scheduler, runId)
    );
  }

  /**
   * Re-attaches to a bulk run from the `resume` token of one of its snapshots. Behaves like
   * `bulk` (including cancel on unsubscribe). Rows of chunks the token names no group for end as
   * `error` with outputs `{ error: "Unknown: … may have been sent after that …" }`: a chunk's
   * bulkStart leaves before the snapshot that names it, so a token saved from the snapshots may
   * lag, and such a chunk may be running and paid for. Do not send those rows again unless paying
   * twice is acceptable. A token saved by `BulkOptions.beforeChunkStart` also knows the chunks
   * that surely were not sent (`mayHaveSent`): their rows end as `error` "Not sent: …", safe to
   * send again. `BulkJobRunner` records its own intents. A group
   * the service answers 404 for fails at once (`poll.bulkVisibilityGraceMs` is not applied: the
   * group was accepted before, so it expired or was deleted).
   *
   * ## Example
   * ```ts
   * const token = JSON.parse(settings.get("bulk")) as BulkResumeToken;
   * client.resumeBulk(token, rowCount).subscribe(render);
   * ```
   * @param token `snapshot.resume` of the bulk
   * @param count the number of inputs (checked against the token)
   * @param options `detach`, as for `bulk`
   * @return a cold Observable of combined snapshots
   */
  resumeBulk(
    token: BulkResumeToken,
    count: number,
    options: Pick<BulkOptions, "detach"> = {}
  ): Observable<BulkSnapshot> {
    return this.core.call((parts) =>
      withModule(parts, bulkModule, ({ clientResumeBulk }) =>
        clientResumeBulk(parts, token, count, options)
      )
    );
  }

  /**
   * Cancels a bulk run: every unfinished run of the group stops. Emits once when the service
   * confirms. Retried on transient failures.
   *
   * ## Example
   * ```ts
   * await lastValueFrom(client.cancelBulk(snapshot.groupId));
   * ```
   * @param groupId the bulk run id
   * @return a cold Observable emitting once
   */
  cancelBulk(groupId: string): Observable<void> {
    return this.core.call(({ api }) => api.cancelBulk(groupId));
  }

  /**
   * Asks both hosts a harmless question with this client's key: getBulkRuns (base host) and
   * getRun (poll host) of an id that cannot exist, each sent once without retries. "Not found"
   * means the host answers and took the key; 401/403 that it refused the key; no answer (or none
   * within `timeouts.readMs`) that it is not reachable. Nothing is started, so nothing costs
   * money. Never rejects; the message never contains the key.
   *
   * ## Example
   * ```ts
   * const check = await client.checkConnection();
   * if (!check.ok) console.error(check.message);
   * ```
   * @return whether both hosts answer and accept the key, with one sentence for a user
   */
  checkConnection(): Promise<ConnectionCheck> {
    const probeId = `spellrun-connection-test-${Math.random().toString(36).slice(2)}`;
    const { options } = this.settings;
    // Loaded on the first check: most programs never make one.
    return Promise.all([
      this.core.parts(),
      import("./http/checkConnection.js"),
      import("./http/SpellBulkApi.js"),
    ]).then(([parts, { checkConnection }, { SpellBulkApi }]) => {
      const api = parts.api.sharedAs(SpellBulkApi);
      return checkConnection(
        api.probeHosts(probeId),
        { baseUrl: options.baseUrl, pollBaseUrl: options.pollBaseUrl },
        (host) => api.answersWithoutCorsConsent(host, probeId)
      );
    });
  }

  /**
   * `run` as a promise of the success outputs, for callers without RxJS. Rejects with the same
   * errors; `signal` aborts (unsubscribes).
   *
   * ## Example
   * ```ts
   * const { summary } = await client.runOutputs("summarize", { text });
   * ```
   * @param spellId the spell's id
   * @param inputs the spell's inputs
   * @param options run options and an optional AbortSignal
   * @return the outputs of the successful run
   */
  runOutputs(
    spellId: string,
    inputs: SpellInputs,
    options: PromiseRunOptions = {}
  ): Promise<SpellOutputs> {
    const { onProgress, ...runOptions } = options;
    return lastSnapshot(this.run(spellId, inputs, runOptions), onProgress).then((s) => s.outputs);
  }

  /**
   * `bulk` as a promise of the final rows (`runs[i]` for `inputsList[i]`); `signal` aborts
   * (and so cancels the unfinished groups).
   *
   * ## Example
   * ```ts
   * const rows = await client.bulkOutputs("echo", inputsList);
   * rows.filter((row) => row.state === "success").map((row) => row.outputs);
   * ```
   * @param spellId the spell's id
   * @param inputsList one inputs object per run
   * @param options the bulk options and a progress callback
   * @return the rows of the done snapshot
   */
  bulkOutputs(
    spellId: string,
    inputsList: readonly SpellInputs[],
    options: PromiseBulkOptions = {}
  ): Promise<BulkRunEntry[]> {
    const { onProgress, ...bulkOptions } = options;
    return lastSnapshot(this.bulk(spellId, inputsList, bulkOptions), onProgress).then(
      (s) => s.runs
    );
  }

  /**
   * `bulk` as an async iterable of its rows: each row once, as soon as it finished (`success`,
   * `failure` or `error`), in the order they finish, with its index in `inputsList`. The bulk is
   * sent when the loop starts; leaving the loop early (`break`, `return`, a throw) cancels its
   * unfinished groups, as an unsubscribe does. An error of the bulk itself is thrown by the loop.
   *
   * ## Example
   * ```ts
   * for await (const row of client.bulkRows("echo", [{ i: 0 }, { i: 1 }])) {
   *   console.log(row.index, row.state, row.outputs);
   * }
   * ```
   * @param spellId the spell's id
   * @param inputsList one inputs object per run
   * @param options as for `bulk` (`signal` and `timeoutMs` end the loop with their error)
   * @return the finished rows, each once
   */
  bulkRows(
    spellId: string,
    inputsList: readonly SpellInputs[],
    options: BulkOptions = {}
  ): AsyncIterable<BulkRow> {
    const bulk$ = this.bulk(spellId, inputsList, options);
    return {
      async *[Symbol.asyncIterator]() {
        // Loaded with the first loop; `yield*` hands a `break` on, which unsubscribes the bulk.
        const { finishedRows } = await import("./runs/finishedRows.js");
        yield* finishedRows(bulk$);
      },
    };
  }

  /**
   * The stable key of a run for result reuse: the service, the spell and the inputs in
   * canonical JSON (key order does not matter). Contains no secret.
   *
   * ## Example
   * ```ts
   * client.reuseKey("echo", { b: 1, a: 2 }) === client.reuseKey("echo", { a: 2, b: 1 }); // true
   * ```
   * @param spellId the spell's id
   * @param inputs the spell's inputs
   * @return a string key
   */
  reuseKey(spellId: string, inputs: SpellInputs): string {
    return this.settings.reuseKey(spellId, inputs);
  }
}
