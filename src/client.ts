import { asyncScheduler, concatMap, defer, from, Observable, take, type SchedulerLike } from "rxjs";
import { SpellApi } from "./http/SpellApi.js";
import type { BulkContext } from "./runs/bulkSnapshots.js";
import { canonicalJson } from "./util/canonicalJson.js";
import type { ConnectionCheck } from "./ConnectionCheck.js";
import { ConcurrencyLimiter } from "./util/ConcurrencyLimiter.js";
import type { BatchSettings, RunBatcher } from "./runs/RunBatcher.js";
import { startAndPollRun, waitRun } from "./runs/runSnapshots.js";
import { pollScheduleFor } from "./runs/pollScheduleFor.js";
import { RunDurationEstimator } from "./runs/RunDurationEstimator.js";
import { MemoryResultStore } from "./MemoryResultStore.js";
import { DEFAULT_POLL } from "./operators/pollUntilDone.js";
import { controlCall } from "./operators/controlCall.js";
import { lastSnapshot } from "./util/lastSnapshot.js";
import { sharedRun } from "./runs/sharedRun.js";
import { resumedBulk } from "./runs/resumedBulk.js";
import { sendBulk } from "./runs/sendBulk.js";
import { resumedRun } from "./runs/resumedRun.js";
import {
  batchSettingsOf,
  bulkChunkLimits,
  DEFAULT_MAX_RUNS_IN_PROGRESS,
  DEFAULT_REUSE_TTL_MS,
} from "./clientDefaults.js";
import type { PromiseRunOptions } from "./PromiseRunOptions.js";
import type { PromiseBulkOptions } from "./PromiseBulkOptions.js";
import type {
  BulkOptions,
  BulkResumeToken,
  BulkRow,
  BulkRunEntry,
  BulkSnapshot,
  PollOptions,
  ResultStore,
  RetryOptions,
  RunOptions,
  RunSnapshot,
  SpellClientOptions,
  SpellInputs,
  SpellOutputs,
} from "./types.js";
import { Spell } from "./Spell.js";

export type { PromiseRunOptions } from "./PromiseRunOptions.js";
export type { PromiseBulkOptions } from "./PromiseBulkOptions.js";

/**
 * A client of the Spell Run service where every run is a cold Observable: nothing is sent until
 * you subscribe, and unsubscribing stops everything (requests aborted, timers cleared, unfinished
 * bulk groups cancelled).
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
  private readonly api: SpellApi;
  private readonly limiter: ConcurrencyLimiter;
  private readonly scheduler: SchedulerLike;
  private readonly poll: Required<PollOptions>;
  /** Per spell, how long this client saw its polled runs take. */
  private readonly durations = new RunDurationEstimator();
  private readonly bulkChunkSize: number;
  private readonly maxBulkBodyBytes: number;
  private readonly service: string;
  private readonly inFlightByKey = new Map<string, Observable<RunSnapshot>>();
  private store: ResultStore | undefined;
  /** The start of every reuse key: `[` and the service address as JSON. */
  private keyPrefix: string | undefined;
  /** How polling-mode runs are batched into bulk runs, when `options.batch` is on. */
  private readonly batchSettings: BatchSettings | undefined;
  /** The batcher, loaded with its module on the first batched run (see `batched`). */
  private batcher: Promise<RunBatcher> | undefined;

  /** The options without the key (which only the transport holds, in private fields). */
  private readonly options: Omit<SpellClientOptions, "apiKey">;

  constructor(options: SpellClientOptions) {
    this.api = new SpellApi(options);
    const { apiKey: _apiKey, ...settings } = options;
    this.options = settings;
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.limiter = new ConcurrencyLimiter(
      options.maxRunsInProgress ?? DEFAULT_MAX_RUNS_IN_PROGRESS,
      "maxRunsInProgress"
    );
    this.poll = { ...DEFAULT_POLL, ...options.poll };
    ({ bulkChunkSize: this.bulkChunkSize, maxBulkBodyBytes: this.maxBulkBodyBytes } =
      bulkChunkLimits(options));
    // Normalised once, by the transport (no trailing slash).
    this.service = this.api.baseUrl;
    // Checked here, not when the batcher is loaded on the first batched run.
    this.batchSettings = batchSettingsOf(options.batch, this.bulkChunkSize);
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
    const row = inputs as Record<string, unknown>;
    const wait = options.wait ?? true;
    const api = options.retry ? this.api.withRetry(options.retry) : this.api;
    // A batch holds its own run slot (one per bulkStart, like a chunk of `bulk`).
    const batched = !wait && this.batchSettings !== undefined;
    // Built only when this call is not answered by a run in flight (most calls of a filled-down
    // column are).
    const send = () =>
      batched
        ? this.batched(spellId, row)
        : this.limiter.schedule(
            defer(() =>
              wait
                ? // The transport bounds the start by waitTimeoutMs from sending it.
                  waitRun(api, spellId, row, Infinity, this.scheduler, this.poll)
                : startAndPollRun(api, spellId, row, this.poll, this.scheduler, {
                    schedule: pollScheduleFor(
                      this.durations,
                      spellId,
                      options.expectedDurationMs,
                      this.poll
                    ),
                    onDuration: (durationMs) => this.durations.record(spellId, durationMs),
                  })
            )
          );
    // The gate sits after reuse: only a run really about to be sent asks it.
    const gate = options.beforeStart;
    const fresh = gate ? () => gate.pipe(take(1), concatMap(send)) : send;
    const reuse =
      options.reuse ?? (this.options.reuse !== undefined && this.options.reuse !== false);
    return this.controlled(
      reuse
        ? sharedRun(
            this.inFlightByKey,
            this.reuseKey(spellId, inputs),
            () => ({ store: this.resultStore(), ttlMs: this.reuseTtlMs() }),
            fresh
          )
        : fresh(),
      options,
      `run of "${spellId}"`
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
    const bulk$ = sendBulk(
      {
        bulkChunkSize: this.bulkChunkSize,
        maxBulkBodyBytes: this.maxBulkBodyBytes,
        bulkContext: (retry) => this.bulkContext(retry),
        reuse: () => ({
          store: this.resultStore(),
          ttlMs: this.reuseTtlMs(),
          keyOf: (inputs) => this.reuseKey(spellId, inputs),
        }),
      },
      spellId,
      inputsList as readonly Record<string, unknown>[],
      options
    );
    return this.controlled(bulk$, options, `bulk of "${spellId}"`);
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
    return resumedRun(this.api, this.limiter, this.poll, this.scheduler, runId);
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
    return defer(() => import("./runs/resumeArgumentProblem.js")).pipe(
      concatMap(({ resumeTokenProblem }) =>
        resumedBulk(() => this.bulkContext(), token, count, options, resumeTokenProblem)
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
    return defer(() => this.api.cancelBulk(groupId));
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
    // Loaded on the first check: most programs never make one.
    return import("./http/checkConnection.js").then(({ checkConnection }) =>
      checkConnection(
        this.api.probeHosts(probeId),
        { baseUrl: this.options.baseUrl, pollBaseUrl: this.options.pollBaseUrl },
        (host) => this.api.answersWithoutCorsConsent(host, probeId)
      )
    );
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
    // canonicalJson([service, spellId, inputs]), with the service's part written once.
    this.keyPrefix ??= `[${canonicalJson(this.service)},`;
    return `${this.keyPrefix}${canonicalJson(spellId)},${canonicalJson(inputs)}]`;
  }

  /**
   * One polling-mode run through the batcher, which is built (and its module loaded) on the
   * first batched run: a client without `batch` never loads it. Runs arriving while it loads
   * wait for it together, so they still share one batch.
   */
  private batched(spellId: string, inputs: Record<string, unknown>): Observable<RunSnapshot> {
    return defer(() => {
      const settings = this.batchSettings as BatchSettings;
      this.batcher ??= import("./runs/RunBatcher.js").then(
        ({ RunBatcher }) => new RunBatcher(() => this.bulkContext(), settings)
      );
      return from(this.batcher);
    }).pipe(concatMap((batcher) => batcher.run(spellId, inputs)));
  }

  private reuseTtlMs(): number {
    return (this.options.reuse ? this.options.reuse.ttlMs : undefined) ?? DEFAULT_REUSE_TTL_MS;
  }

  private resultStore(): ResultStore {
    if (!this.store) {
      const configured = this.options.reuse ? this.options.reuse.store : undefined;
      this.store = configured ?? new MemoryResultStore();
    }
    return this.store;
  }

  /**
   * Applies a call's own controls: its time limit (`timeoutMs`), then its `signal`; each stops
   * the call as an unsubscribe does.
   */
  private controlled<T>(
    source: Observable<T>,
    options: Pick<RunOptions, "signal" | "timeoutMs">,
    call: string
  ): Observable<T> {
    return controlCall(source, options, call, this.scheduler);
  }

  /** The bulk machinery, with a call's own retry timing laid over the client's when given. */
  private bulkContext(retry?: RetryOptions): BulkContext {
    const api = retry ? this.api.withRetry(retry) : this.api;
    return {
      api,
      limiter: this.limiter,
      poll: this.poll,
      retry: { ...this.options.retry, ...retry },
      scheduler: this.scheduler,
      visibilityGraceMs: this.poll.bulkVisibilityGraceMs ?? DEFAULT_POLL.bulkVisibilityGraceMs,
      // A cancel is a read: what an unsubscribe leaves behind ends within the read limit (or the
      // start limit, if shorter), not the longer start limit of a bulkStart still in flight.
      afterUnsubscribeMs: Math.min(this.api.readTimeoutMs, this.api.startTimeoutMs),
      logBulkStartRetry: api.retryLog("bulkStart"),
    };
  }
}
