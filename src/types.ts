import type { Observable, SchedulerLike } from "rxjs";
import type { RunState, RunStateCounts } from "./RunState.js";
import type { SpellLogger } from "./SpellLogEvent.js";

// The service's vocabulary lives in RunState.ts and Endpoint.ts, which import nothing, so that
// SpellLogEvent.ts can use it without importing this file back; re-exported here so the
// modules that import it from types.ts keep doing so.
export { TERMINAL_STATES, type RunState, type RunStateCounts } from "./RunState.js";
export type { Endpoint, HttpMethod } from "./Endpoint.js";

/**
 * A spell's inputs: any object of named values, an `interface` or a `type` of yours as well as a
 * `Record<string, unknown>`. Sent as JSON; never changed by the client.
 *
 * ## Example
 * ```ts
 * interface Review {
 *   text: string;
 *   stars: number;
 * }
 * const inputs: SpellInputs = { text: "Great", stars: 5 } satisfies Review;
 * ```
 */
export type SpellInputs = object;

/**
 * A spell's outputs as the service sends them, when you do not name their type.
 *
 * ## Example
 * ```ts
 * const outputs: SpellOutputs = { label: "positive" };
 * ```
 */
export type SpellOutputs = Record<string, unknown>;

/**
 * What a single run looks like at one moment. `Out` types the outputs of a `success` (see
 * `SpellClient.spell`); other states carry whatever the service sent (`{}` while in progress,
 * a reason on failure), so check `state` before reading typed outputs.
 *
 * ## Example
 * ```ts
 * const snapshot: RunSnapshot = { runId: 42, state: "inProgress", outputs: {} };
 * ```
 */
export type RunSnapshot<Out extends object = SpellOutputs> =
  | (RunSnapshotFields & { state: "success"; outputs: Out })
  | (RunSnapshotFields & { state: Exclude<RunState, "success">; outputs: SpellOutputs });

/**
 * The fields every `RunSnapshot` has, whatever its state.
 *
 * ## Example
 * ```ts
 * const fields: RunSnapshotFields = { runId: 42 };
 * ```
 */
export interface RunSnapshotFields {
  /** The service's run id; absent in wait mode (the service sends none) and for reused results. */
  runId?: string | number;
  /**
   * The state exactly as the service sent it, when that is not one of the four `RunState`
   * strings (`"queued"`, `"SUCCESS"`, `"cancelled"`); absent otherwise.
   */
  serviceState?: string;
}

/**
 * One row of a bulk snapshot. `pending` means the service does not show this run yet (bulk runs
 * may appear late) or its chunk has not been submitted yet. `Out` types the outputs of a
 * `success`, as in `RunSnapshot`.
 *
 * ## Example
 * ```ts
 * const row: BulkRunEntry = { state: "pending", outputs: {} };
 * ```
 */
export type BulkRunEntry<Out extends object = SpellOutputs> =
  | (BulkRunEntryFields & { state: "success"; outputs: Out })
  | (BulkRunEntryFields & {
      state: Exclude<RunState, "success"> | "pending";
      outputs: SpellOutputs;
    });

/**
 * The fields every `BulkRunEntry` has, whatever its state.
 *
 * ## Example
 * ```ts
 * const fields: BulkRunEntryFields = { serviceState: "queued" };
 * ```
 */
export interface BulkRunEntryFields {
  /** The service's own state text when it is not one of the `RunState` strings (see `RunSnapshot`). */
  serviceState?: string;
}

/**
 * What `resumeBulk` needs to re-attach to a bulk run, e.g. after a reload. JSON-serialisable and
 * free of secrets, so it can be stored in document settings.
 *
 * `groupIds[i]` is the bulk run of chunk `i`, whose size is `chunkSizes[i]`. While chunks are
 * still queued `groupIds` is shorter than `chunkSizes`.
 *
 * ## Example
 * ```ts
 * localStorage.setItem("bulk", JSON.stringify(snapshot.resume));
 * ```
 */
export interface BulkResumeToken {
  spellId: string;
  groupIds: string[];
  chunkSizes: number[];
  /**
   * Present when a `bulk(…, { reuse: true })` did not send every row as its own run: per row,
   * the index (among the runs sent) of the run that answers it, rows with identical inputs
   * sharing one; `-1` for a row answered from remembered results, whose outputs are not in the
   * token (`resumeBulk` shows such a row as `error`, "answered from remembered results": run it
   * again, which the store answers at no cost while it remembers it). `chunkSizes` add up to the
   * runs sent; `resumeBulk`'s count is the number of rows.
   */
  rows?: number[];
  /**
   * Present in a token handed to `BulkOptions.beforeChunkStart`: the chunks whose bulkStart may
   * have left when it was taken (those before it, and the one about to go). A chunk at or after
   * this index was surely not sent: `resumeBulk` says so ("Not sent"), and sending its rows again
   * cannot pay twice. Absent (a snapshot's token): every chunk without a group may have been sent.
   */
  mayHaveSent?: number;
}

/**
 * What a bulk run looks like at one moment.
 *
 * ## Example
 * ```ts
 * client.bulk("echo", rows).subscribe((s) => console.log(`${s.counts.success}/${s.total}`));
 * ```
 */
export interface BulkSnapshot<Out extends object = SpellOutputs> {
  /** The first chunk's group id (`""` until it is known). */
  groupId: string;
  /** One group id per submitted chunk, in chunk order. */
  groupIds: string[];
  /** `runs[i]` belongs to `inputsList[i]`; always `inputsList.length` long. */
  runs: BulkRunEntry<Out>[];
  /** True once every run is visible and none is `inProgress` or `pending`. */
  done: boolean;
  total: number;
  counts: RunStateCounts;
  resume: BulkResumeToken;
}

/**
 * Per-call options of `SpellClient.bulk`.
 *
 * ## Example
 * ```ts
 * client.bulk("summarize", rows, { reuse: true });
 * ```
 */
export interface BulkOptions {
  /**
   * Rows whose success is remembered in the client's result store (see `ReuseOptions`; the
   * same store and keys as `run`) are answered from it and not sent; identical rows are sent
   * once and share one run; each success is remembered. With a store that can `delete`, each
   * row sent is also remembered as started until it ends, and a later `bulk` (after a reload)
   * watches such a row again instead of sending it. `resume` then describes the rows sent
   * only, so leave this off for bulks you may resume. @default false
   */
  reuse?: boolean | undefined;
  /**
   * When this emits, the bulk completes without cancelling its unfinished groups: they go on at
   * the service and `resumeBulk` collects them later (a caller that can no longer write results,
   * and must not throw away paid runs). Unsubscribing still cancels. @default never
   */
  detach?: Observable<unknown> | undefined;
  /**
   * Called with the number of runs about to be sent and subscribed before the first bulkStart,
   * and only then: with `reuse`, rows answered by a remembered result are not counted and
   * identical rows count once; a bulk with nothing to send does not call it. The bulk is sent on
   * its first value; when it errors, the bulk fails with that error and nothing is sent. The
   * add-in's spending guard is one (a `SPELL.BULK` beyond the threshold waits for the user).
   * @default none: the bulk is sent at once
   */
  beforeStart?: ((runs: number) => Observable<unknown>) | undefined;
  /**
   * The intent hook of a crash-safe bulk: called before each chunk's bulkStart with a resume token
   * that names the groups so far and says which chunks may have been sent (`mayHaveSent`, this
   * one included). Save that token durably here: the bulkStart waits for the hook's first value
   * (or its completion, or its promise), so after a crash the last token saved tells, for every
   * chunk, whether it has a group, may have been sent (never send it again unless paying twice
   * is acceptable) or surely was not. When the hook errors, the bulk fails and nothing more is
   * sent. `BulkJobRunner` records its own intents; this is for the plain `bulk`.
   * @default none
   */
  beforeChunkStart?:
    ((token: BulkResumeToken) => Observable<unknown> | PromiseLike<unknown>) | undefined;
  /**
   * Stops this call when it aborts, as an unsubscribe does (requests aborted, unfinished bulk
   * groups cancelled, queued runs never sent), and the stream errors with the signal's reason.
   * One signal may serve many calls. @default none
   */
  signal?: AbortSignal | undefined;
  /**
   * Time limit of this whole call, from subscribing (the wait for a slot, polls and retries
   * count): when it passes, the call stops as an unsubscribe does and errors with
   * `SpellCallTimeoutError`. The per-request limits (`timeouts`, `waitTimeoutMs`) still apply
   * to each request. @default none
   */
  timeoutMs?: number | undefined;
  /** Retry timing of this call's requests, laid over the client's `retry`. @default the client's */
  retry?: RetryOptions | undefined;
}

/**
 * Per-request time limits (see `SpellClientOptions.timeouts`).
 *
 * ## Example
 * ```ts
 * new SpellClient({ ...connection, timeouts: { readMs: 10_000, startMs: 30_000 } });
 * ```
 */
export interface RequestTimeouts {
  /**
   * getRun, getBulkRuns, cancelBulk. Also bounds what an unsubscribed bulk leaves in the
   * background (the answer of a bulkStart in flight, then its cancelBulk, retries included), with
   * `startMs` when that is shorter: a cancel is a read-sized request, so nothing keeps a process
   * alive longer than this after an unsubscribe, whatever the service does. @default 30000
   */
  readMs?: number | undefined;
  /** Polling-mode start and bulkStart (not retried when it passes). @default 60000 */
  startMs?: number | undefined;
}

/**
 * Poll timing. For a spell the client has not seen finish, the first poll waits
 * `initialDelayMs`; each later interval is the previous one times `growth`, capped at
 * `maxIntervalMs`. Once the client has seen a spell's runs finish (or the caller passes
 * `RunOptions.expectedDurationMs`), polls are sparse before the expected end and dense around
 * it (see `expectedEndSchedule`). The next poll is always scheduled after the previous answer,
 * so polls never overlap.
 *
 * ## Example
 * ```ts
 * new SpellClient({ ...connection, poll: { initialDelayMs: 100, maxIntervalMs: 2000 } });
 * ```
 */
export interface PollOptions {
  /** Delay before the first poll. @default 250 */
  initialDelayMs?: number | undefined;
  /** Interval after the first poll. @default 250 */
  intervalMs?: number | undefined;
  /** Factor applied to the interval after every poll. @default 2 */
  growth?: number | undefined;
  /** Largest interval. @default 6000 */
  maxIntervalMs?: number | undefined;
  /**
   * How long a bulk group may answer 404 after bulkStart before that is an error. Not applied by
   * `resumeBulk`. @default 30000
   */
  bulkVisibilityGraceMs?: number | undefined;
  /**
   * How long getRun may answer 404 for a run this client has just started (a poll host lagging
   * behind the start host) before that is an error. Not applied by `resumeRun`. @default 30000
   */
  runVisibilityGraceMs?: number | undefined;
  /**
   * How a bulk group is polled: `"pace"` learns the service's pace from each answer (runs finished
   * and left) and polls near the group's predicted end, so a finish is seen within
   * max(300 ms, 10 %) of it in a handful of polls (see `bulkPaceSchedule`); `"fixed"` follows
   * `initialDelayMs`, `intervalMs` and `growth` only (the doubling schedule of earlier versions).
   * @default "pace"
   */
  bulkSchedule?: "pace" | "fixed" | undefined;
  /**
   * Longest time one run (or one bulk chunk) is polled. A run still unfinished then (in progress,
   * in a state the client does not know, or a bulk group showing fewer runs than its inputs)
   * fails with `SpellPollLimitError`, which carries the run id (group id) so that `resumeRun`
   * (`resumeBulk`) can continue; the run itself is not cancelled. @default 3600000 (1 h)
   */
  maxPollMs?: number | undefined;
}

/**
 * Retry timing for transient failures (see `shouldRetry` for which failures). Kept apart from
 * poll timing: "still running" is not an error.
 *
 * ## Example
 * ```ts
 * new SpellClient({ ...connection, retry: { limit: 2, maxDelayMs: 5000 } });
 * ```
 */
export interface RetryOptions {
  /** Retries per request after the first attempt. @default 5 */
  limit?: number | undefined;
  /** Delay before the first retry; doubles each retry. @default 300 */
  baseDelayMs?: number | undefined;
  /** Largest backoff delay. @default 10000 */
  maxDelayMs?: number | undefined;
  /** Largest delay taken from a `Retry-After` header (clamped to this). @default 60000 */
  maxRetryAfterMs?: number | undefined;
  /** Fraction of the backoff delay randomly taken off (0 = none, 1 = full jitter). @default 0.3 */
  jitter?: number | undefined;
  /** Random source in [0, 1), injectable for deterministic specs. @default Math.random */
  random?: (() => number) | undefined;
}

/**
 * Pluggable memory of successful outputs, used by result reuse. The custom functions persist it.
 *
 * ## Example
 * ```ts
 * const store: ResultStore = { get: (k) => map.get(k), set: (k, v) => void map.set(k, v) };
 * ```
 */
export interface ResultStore {
  get(
    key: string
  ): Promise<Record<string, unknown> | undefined> | Record<string, unknown> | undefined;
  set(key: string, outputs: Record<string, unknown>, ttlMs: number): Promise<void> | void;
  /**
   * Forgets `key`. A store that has it also keeps, beside the results, the runs started and not
   * yet ended (under keys of their own, for the same TTL): after a reload a call with the same
   * inputs watches its started run again instead of paying for a new one. Optional: a store
   * without it keeps results only.
   */
  delete?(key: string): Promise<void> | void;
}

/**
 * Result reuse settings: identical `(service, spellId, inputs)` share one run in flight, and a
 * success is remembered for `ttlMs`.
 *
 * ## Example
 * ```ts
 * new SpellClient({ ...connection, reuse: { ttlMs: 3_600_000 } });
 * ```
 */
export interface ReuseOptions {
  /** How long a success is reused. @default 86_400_000 (24 h) */
  ttlMs?: number | undefined;
  /** Where successes are kept. @default a `MemoryResultStore` of 1000 entries */
  store?: ResultStore | undefined;
  /**
   * How long a run whose last subscriber left is kept going before it is unsubscribed (a
   * batched run's group cancelled once none of its rows is kept): a subscription with the same
   * key within it watches the same run instead of sending a new one (a spreadsheet cell whose
   * input was changed and changed back, an Undo then Redo). Only a run whose request went out
   * is kept: one still queued (`maxRunsInProgress`) or in an open batch is let go at once, never
   * sent for a subscriber that left. A single run goes on at the service after an unsubscribe
   * anyway; this keeps it reusable. The Excel add-in uses 10 s. 0 unsubscribes at once.
   * @default 0
   */
  cancelGraceMs?: number | undefined;
}

/**
 * Batching of single runs into bulk runs (`SpellClientOptions.batch`): polling-mode `run` calls
 * of the same spell that arrive within `windowMs` of the first one go out as one `bulkStart` and
 * are polled together with `getBulkRuns`. Each caller still gets its own Observable of its own
 * run (no `runId`: a bulk run shows none) and its own `SpellRunError`; unsubscribing drops only
 * that caller's interest, and when every caller of a batch has left before it finished, the bulk
 * run is cancelled with one `cancelBulk`. Wait-mode runs are never batched.
 *
 * ## Example
 * ```ts
 * new SpellClient({ ...connection, batch: { windowMs: 20, maxSize: 200 } });
 * ```
 */
export interface BatchOptions {
  /** How long a batch waits for more calls after its first one. @default 50 */
  windowMs?: number | undefined;
  /** A batch goes out at once when it holds this many calls; at most `bulkChunkSize`. @default bulkChunkSize */
  maxSize?: number | undefined;
}

/**
 * Options of `SpellClient`.
 *
 * ## Example
 * ```ts
 * const options: SpellClientOptions = {
 *   apiKey: process.env.SPELL_API_KEY!,
 *   baseUrl: "https://api.example.com",
 *   pollBaseUrl: "https://poll.example.com",
 * };
 * ```
 */
export interface SpellClientOptions {
  /** The Spell Run API key; sent only in the `authHeader` header, never in a URL, log or error. */
  apiKey: string;
  /** Host of start, bulkStart, cancelBulk and getBulkRuns (no trailing slash needed). */
  baseUrl: string;
  /** Host of getRun. */
  pollBaseUrl: string;
  /** Header carrying the key. @default "authorization" (`Bearer <key>`) */
  authHeader?: "authorization" | "x-api-key" | undefined;
  /**
   * Send an `Idempotency-Key` header (a random id, the same on every retry of one call) with
   * each start and bulkStart, so a gateway that charges runs (the add-in server's organisation
   * mode) charges a retried call once. Off by default: a service called directly from a browser
   * may not allow the header in its CORS answer.
   * @default false
   */
  idempotencyKeys?: boolean | undefined;
  /** @default the global fetch, else cross-fetch */
  fetch?: typeof fetch | undefined;
  /**
   * Client-wide limit of HTTP requests in flight at once; more wait in a queue, unsent. It
   * protects the service's rate and the browser's connections (about 6 per host over HTTP/1.1):
   * what loads them is requests, not runs the service is busy with. A request holds its slot
   * from sending until its fetch has really ended (an aborted request a moment after the
   * unsubscribe), so the service never sees more at once. A polling-mode run holds a slot only
   * during its start and each poll; a wait-mode run, whose one request lasts the whole run,
   * holds one throughout. (Until this version the limit counted runs: 2,000 polling-mode runs
   * of the emulator took 141 s, each slot idle between polls; see `maxRunsInProgress`.)
   * @default 8
   */
  maxInFlight?: number | undefined;
  /**
   * Client-wide limit of runs in progress: single runs (either mode) and bulk chunks from their
   * start until finished; more wait in a queue without sending anything. It protects the user's
   * spend: a started single run cannot be cancelled, so after an unsubscribe at most this many
   * runs go on being paid for, and the rest were never started. @default 64
   */
  maxRunsInProgress?: number | undefined;
  /** Largest bulkStart; longer lists go out as several bulk runs. @default 500 */
  bulkChunkSize?: number | undefined;
  /**
   * Largest bulkStart body in bytes: a chunk whose JSON would be larger is split into smaller
   * bulk runs before sending (a service answers 413, often as a dropped connection). The Spell
   * service does not document its limit; 1 MiB is the default of common servers and proxies
   * (the emulator takes 5 MiB). @default 1048576
   */
  maxBulkBodyBytes?: number | undefined;
  /**
   * Time limit of a wait-mode run, from sending its start (the wait for a request slot does not
   * count). @default 120000
   */
  waitTimeoutMs?: number | undefined;
  /**
   * Time limit of every other request, from sending it to the last byte of its answer (a body
   * trickling in counts). A read (getRun, getBulkRuns, cancelBulk) that passes it is retried like
   * a network error; a polling-mode start or a bulkStart is not retried, since it may have created
   * runs, and fails with `SpellTimeoutError`. Without it a silent service would hold a request
   * for Node's own 300 s, or forever in a browser.
   */
  timeouts?: RequestTimeouts | undefined;
  /**
   * Largest answer the client reads (bytes). A larger one fails with
   * `SpellResponseTooLargeError` as soon as it passes the limit, so a broken or hostile service
   * cannot take the memory. @default 67108864 (64 MiB)
   */
  maxResponseBytes?: number | undefined;
  poll?: PollOptions | undefined;
  retry?: RetryOptions | undefined;
  /** Result reuse; off unless given here or asked per run. @default false */
  reuse?: ReuseOptions | false | undefined;
  /**
   * Batch polling-mode `run` calls of the same spell into bulk runs (see `BatchOptions`);
   * `true` takes the defaults. @default false
   */
  batch?: BatchOptions | boolean | undefined;
  /** Scheduler of every timer (poll, retry, timeout); a `TestScheduler` in specs. @default asyncScheduler */
  scheduler?: SchedulerLike | undefined;
  /**
   * Told of everything the client does, as it happens: each request sent, answered, failed,
   * aborted or retried, each poll's answer, each cancel (method, endpoint, status, duration, run
   * or group id; see `SpellLogEvent`). Never the key. `formatLogEvent` makes a readable line of an
   * event. @default none
   */
  logger?: SpellLogger | undefined;
  /**
   * Also log request and answer bodies (the inputs and outputs of runs), scrubbed of the key.
   * Off by default: bodies hold the user's data. @default false
   */
  logBodies?: boolean | undefined;
}

/**
 * Per-run options of `SpellClient.run`.
 *
 * ## Example
 * ```ts
 * client.run("summarize", { text }, { wait: false, reuse: true });
 * ```
 */
export interface RunOptions {
  /** Wait mode (one long request) or polling mode. @default true */
  wait?: boolean | undefined;
  /** Share identical runs and reuse successes; overrides the client's `reuse`. */
  reuse?: boolean | undefined;
  /**
   * How long you expect this run to take (polling mode): polls are then sparse before it and
   * dense around it (±15 %). Without it, the client uses what it learned from this spell's
   * earlier runs, and the fixed `PollOptions` schedule for a spell it has not seen finish.
   */
  expectedDurationMs?: number | undefined;
  /**
   * Subscribed right before a new run would be sent, and only then: a run answered by a
   * remembered result or shared with a run in flight does not subscribe it. The run is sent on
   * its first value; when it errors, the run ends with that error and nothing is sent. The
   * add-in's spending guard is one (runs beyond a threshold wait for the user's decision).
   */
  beforeStart?: Observable<unknown> | undefined;
  /**
   * Stops this call when it aborts, as an unsubscribe does (requests aborted, unfinished bulk
   * groups cancelled, queued runs never sent), and the stream errors with the signal's reason.
   * One signal may serve many calls. @default none
   */
  signal?: AbortSignal | undefined;
  /**
   * Time limit of this whole call, from subscribing (the wait for a slot, polls and retries
   * count): when it passes, the call stops as an unsubscribe does and errors with
   * `SpellCallTimeoutError`. The per-request limits (`timeouts`, `waitTimeoutMs`) still apply
   * to each request. @default none
   */
  timeoutMs?: number | undefined;
  /** Retry timing of this call's requests, laid over the client's `retry`. @default the client's */
  retry?: RetryOptions | undefined;
}

/**
 * One finished row of a bulk, as `SpellClient.bulkRows` yields it: the row's entry and its index
 * in the inputs list.
 *
 * ## Example
 * ```ts
 * const row: BulkRow = { index: 3, state: "success", outputs: { label: "positive" } };
 * ```
 */
export type BulkRow<Out extends object = SpellOutputs> = BulkRunEntry<Out> & {
  /** The row's index in the inputs list. */
  index: number;
};
