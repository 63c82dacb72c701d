import {
  asyncScheduler,
  defer,
  map,
  tap,
  throwError,
  type Observable,
  type SchedulerLike,
} from "rxjs";
import { ConcurrencyLimiter } from "../util/ConcurrencyLimiter.js";
import { SERVICE_ENDPOINTS, endpointPath } from "./serviceEndpoints.js";
import { SpellTimeoutError } from "../errors/SpellTimeoutError.js";
import { SpellNetworkError } from "../errors/SpellNetworkError.js";
import { DEFAULT_RETRY, retryTransient } from "../operators/retryTransient.js";
import {
  parseRunAnswer,
  parseRunId,
  parseWaitAnswer,
  type RunAnswer,
  type WaitAnswer,
} from "./parseResponses.js";
import type { Endpoint, RetryOptions } from "../types.js";
import { SpellError } from "../errors/SpellError.js";
import type { RequestTarget } from "../errors/describeRequest.js";
import { requestJson, type JsonRequest } from "./requestJson.js";
import { keyRedactor, type Redactor } from "./keyRedactor.js";
import { checkApiKey } from "./checkApiKey.js";
import { idsInAnswer } from "./idsInAnswer.js";
import { newRequestKey } from "./newRequestKey.js";
import { optionalServiceState } from "./optionalServiceState.js";
import { serviceUrl } from "./serviceUrl.js";
import type { SpellApiOptions } from "./SpellApiOptions.js";
import type { SpellRunEndpoints } from "./SpellRunEndpoints.js";
import { resolveFetch } from "./resolveFetch.js";
import { RateLimitPause } from "./RateLimitPause.js";
import { DEFAULT_MAX_IN_FLIGHT } from "./transportDefaults.js";
import type { RequestLog } from "./requestJson.js";
import type { SpellLogger, SpellLogRequest } from "../SpellLogEvent.js";
import { emitLog, errorText } from "../util/emitLog.js";
import { toRunState } from "./parseResponses.js";

export type { SpellApiOptions } from "./SpellApiOptions.js";
export type { SpellEndpoints } from "./SpellEndpoints.js";
export type { SpellRunEndpoints } from "./SpellRunEndpoints.js";

/** Default of `SpellClientOptions.waitTimeoutMs`, documented there. */
const DEFAULT_WAIT_TIMEOUT_MS = 120_000;

/** Default of `SpellClientOptions.maxResponseBytes`, documented there. */
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Defaults of `RequestTimeouts`, documented there. */
const DEFAULT_READ_TIMEOUT_MS = 30_000;
const DEFAULT_START_TIMEOUT_MS = 60_000;

/**
 * What the transports of one client share: its request slots and its rate-limit pause.
 *
 * ## Example
 * ```ts
 * const shared: SharedTransport = { requestSlots: new ConcurrencyLimiter(8), pause };
 * ```
 * @internal
 */
export interface SharedTransport {
  requestSlots: ConcurrencyLimiter;
  pause: RateLimitPause;
}

/**
 * A class of transport: `SpellApi` or one adding endpoints to it.
 *
 * ## Example
 * ```ts
 * const Api: SpellApiClass<SpellApi> = SpellApi;
 * ```
 * @internal
 */
export type SpellApiClass<A extends SpellApi> = new (
  options: SpellApiOptions,
  shared?: SharedTransport
) => A;

/**
 * The one place that knows the service's paths, headers and body shapes: the endpoints of a
 * single run and `cancelBulk`; `SpellBulkApi` adds the bulk endpoints and the connection probes.
 *
 * ## Example
 * ```ts
 * const api = new SpellApi({ apiKey, baseUrl, pollBaseUrl });
 * api.getRun("run-1").subscribe((answer) => console.log(answer.state));
 * ```
 * @internal
 */
export class SpellApi implements SpellRunEndpoints {
  protected readonly fetchFn: typeof fetch;
  // The key lives only in these private (#) fields: `util.inspect`, `JSON.stringify` and error
  // objects never show it.
  readonly #headers: Record<string, string>;
  readonly #jsonHeaders: Record<string, string>;
  readonly #redact: Redactor;
  /** The base host as the paths are appended to it (no trailing slash); holds no secret. */
  readonly baseUrl: string;
  private readonly pollBaseUrl: string;
  private readonly scheduler: SchedulerLike;
  private readonly retryOptions: RetryOptions | undefined;
  /** Time limit of a read or a cancel (`RequestTimeouts.readMs`). */
  readonly readTimeoutMs: number;
  /** Time limit of a polling-mode start or bulkStart (`RequestTimeouts.startMs`). */
  readonly startTimeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly waitTimeoutMs: number;
  /** Every request holds one of these from sending until its fetch has really ended. */
  private readonly requestSlots: ConcurrencyLimiter;
  private readonly logger: SpellLogger | undefined;
  private readonly logBodies: boolean;
  /** One 429 pauses every request of the client (see `RateLimitPause`). */
  private readonly pause: RateLimitPause;
  /** The options it was built with, for `withRetry`. */
  readonly #options: SpellApiOptions;
  private readonly idempotencyKeys: boolean;

  /**
   * @param options connection, limits and log
   * @param shared the request slots and the rate-limit pause of the client, when this is a
   *   view of it with other retry settings (see `withRetry`)
   */
  constructor(options: SpellApiOptions, shared?: SharedTransport) {
    this.#options = options;
    checkApiKey(options.apiKey);
    this.fetchFn = resolveFetch(options.fetch);
    this.baseUrl = serviceUrl("baseUrl", options.baseUrl);
    this.pollBaseUrl = serviceUrl("pollBaseUrl", options.pollBaseUrl);
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.retryOptions = options.retry;
    this.readTimeoutMs = options.timeouts?.readMs ?? DEFAULT_READ_TIMEOUT_MS;
    this.startTimeoutMs = options.timeouts?.startMs ?? DEFAULT_START_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.waitTimeoutMs = options.waitTimeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
    this.requestSlots =
      shared?.requestSlots ?? new ConcurrencyLimiter(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    this.pause =
      shared?.pause ??
      new RateLimitPause(
        this.scheduler,
        options.retry?.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs,
        options.retry?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs
      );
    this.logger = options.logger;
    this.logBodies = options.logBodies ?? false;
    this.idempotencyKeys = options.idempotencyKeys ?? false;
    this.#headers = {
      Accept: "application/json",
      ...(options.authHeader === "x-api-key"
        ? { "x-api-key": options.apiKey }
        : { Authorization: `Bearer ${options.apiKey}` }),
    };
    this.#jsonHeaders = { ...this.#headers, "Content-Type": "application/json" };
    // Answers end up in errors, snapshots and URLs; a service echoing the key must not leak it.
    this.#redact = keyRedactor(options.apiKey);
  }

  /**
   * The same transport (request slots, rate-limit pause, key, log) with other retry settings for
   * one call (`RunOptions.retry`), laid over the client's.
   *
   * ## Example
   * ```ts
   * const patient = api.withRetry({ limit: 10 });
   * ```
   * @param retry the call's retry settings
   * @return a transport sharing this one's slots and pause
   */
  withRetry(retry: RetryOptions): this {
    return this.sharedAs(this.constructor as SpellApiClass<this>, retry);
  }

  /**
   * The same transport (request slots, rate-limit pause, key, log) as an instance of `Api`, a
   * class adding endpoints (`SpellBulkApi`, loaded with the first bulk), with `retry` laid over
   * the client's retry settings.
   *
   * ## Example
   * ```ts
   * const { SpellBulkApi } = await import("./SpellBulkApi.js");
   * api.sharedAs(SpellBulkApi).getBulkRuns("bulk-1").subscribe(console.log);
   * ```
   * @param Api the class of the transport wanted
   * @param retry the call's retry settings
   * @return a transport of that class sharing this one's slots and pause
   */
  sharedAs<A extends SpellApi>(Api: SpellApiClass<A>, retry: RetryOptions = {}): A {
    return new Api(
      { ...this.#options, retry: { ...this.#options.retry, ...retry } },
      { requestSlots: this.requestSlots, pause: this.pause }
    );
  }

  startAndWait(spellId: string, inputs: Record<string, unknown>): Observable<WaitAnswer> {
    const target = this.target("start");
    // The whole run is this one request: bounded by waitTimeoutMs from sending it.
    return this.send(target, { spellId, wait: true, inputs }, { limitMs: this.waitTimeoutMs }).pipe(
      this.retry(target),
      map((body) => parseWaitAnswer(body, target))
    );
  }

  startPolling(spellId: string, inputs: Record<string, unknown>): Observable<string | number> {
    const target = this.target("start");
    return this.send(target, { spellId, wait: false, inputs }).pipe(
      this.retry(target),
      map((body) => parseRunId(body, target))
    );
  }

  getRun(runId: string | number): Observable<RunAnswer> {
    if (this.#redact.holdsKey(String(runId))) {
      // A run id given to resumeRun by mistake (or by a hostile page) must not carry the key
      // into a URL (server logs, proxies); ids read from answers are already scrubbed.
      return throwError(() => new SpellError("getRun: the run id holds the API key; not sent"));
    }
    const target = this.target("getRun", runId);
    return this.send(target, undefined, { ids: { runId } }).pipe(
      this.retry(target, { runId }),
      map((body) => parseRunAnswer(body, target)),
      tap((answer) =>
        this.log(() => ({
          type: "poll",
          ...target,
          runId,
          state: toRunState(answer.state),
          ...optionalServiceState(answer.state),
        }))
      )
    );
  }

  cancelBulk(groupId: string): Observable<void> {
    const target = this.target("cancelBulk");
    // The body of cancelBulk's answer is "not shown": any 2xx (204, empty, text) means it went through.
    return defer(() => {
      this.log(() => ({ type: "cancel", ...target, groupId }));
      return this.send(target, { groupId }, { ignoreBody: true, ids: { groupId } }).pipe(
        this.retry(target, { groupId }),
        map(() => undefined)
      );
    });
  }

  /**
   * Method, endpoint and URL of a request: getRun is a GET on the poll host with the run id in
   * the query, every other endpoint a POST on the base host.
   */
  protected target(endpoint: Endpoint, runId?: string | number): RequestTarget {
    const { method, host } = SERVICE_ENDPOINTS[endpoint];
    const query = endpoint === "getRun" ? `?runId=${encodeURIComponent(String(runId))}` : "";
    const hostUrl = host === "poll" ? this.pollBaseUrl : this.baseUrl;
    return { method, endpoint, url: `${hostUrl}${endpointPath(endpoint)}${query}` };
  }

  private requestLog(
    target: RequestTarget,
    ids: Partial<SpellLogRequest> = {}
  ): RequestLog | undefined {
    if (!this.logger) return undefined;
    return {
      logger: this.logger,
      about: { ...target, ...ids },
      bodies: this.logBodies,
      idsOf: idsInAnswer(target.endpoint),
    };
  }

  /**
   * What to tell the log when a request to `target` is retried: for the retries decided outside
   * this class (bulkStart's, in bulkSnapshots); undefined without a logger.
   */
  retryLog(
    endpoint: Endpoint,
    ids: Partial<SpellLogRequest> = {}
  ): ((retry: { retryCount: number; delayMs: number; error: unknown }) => void) | undefined {
    const { logger } = this;
    if (!logger) return undefined;
    const target = this.target(endpoint, ids.runId);
    return ({ retryCount, delayMs, error }) =>
      emitLog(logger, {
        type: "retry",
        ...target,
        ...ids,
        retry: retryCount,
        delayMs,
        error: errorText(error),
        noAnswer: error instanceof SpellNetworkError || error instanceof SpellTimeoutError,
      });
  }

  protected retry<T>(target: RequestTarget, ids: Partial<SpellLogRequest> = {}) {
    return retryTransient<T>(
      target.endpoint,
      this.retryOptions,
      this.scheduler,
      this.retryLog(target.endpoint, ids)
    );
  }

  /** Builds and emits an event only when someone listens (a poll's counts cost a pass). */
  protected log(event: () => Parameters<SpellLogger>[0]): void {
    if (this.logger) emitLog(this.logger, event());
  }

  /**
   * Sends one request per subscription, with a JSON body when given, under its time limit: the
   * wait-mode limit when `limitMs` is given, else the start or read limit by endpoint.
   */
  protected send(
    target: RequestTarget,
    body?: unknown,
    {
      limitMs,
      ignoreBody,
      onSent,
      ids,
    }: {
      limitMs?: number;
      ignoreBody?: boolean;
      onSent?: () => void;
      /** The run or group the request is about, for the log. */
      ids?: Partial<SpellLogRequest>;
    } = {}
  ): Observable<unknown> {
    const createsRuns = target.endpoint === "start" || target.endpoint === "bulkStart";
    const waits = limitMs !== undefined;
    const ms = limitMs ?? (createsRuns ? this.startTimeoutMs : this.readTimeoutMs);
    const request: JsonRequest = {
      ...target,
      // Content-Type only with a body: servers reject an empty JSON body on GET.
      headers: {
        ...(body === undefined ? this.#headers : this.#jsonHeaders),
        // Made once per call, outside the retry: every attempt of this call carries the same id.
        ...(createsRuns && this.idempotencyKeys ? { "Idempotency-Key": newRequestKey() } : {}),
      },
      body,
      ignoreBody,
      onSent,
      maxBytes: this.maxResponseBytes,
      // Per attempt (inside the retry), from sending: the wait for a slot does not count.
      limitMs: ms,
      timeoutError: () =>
        new SpellTimeoutError(
          target.method,
          target.endpoint,
          ms,
          waits
            ? undefined
            : createsRuns
              ? "not sent again, since the service may have started it"
              : "the service did not answer in time",
          target.url
        ),
      log: this.requestLog(target, ids),
    };
    // Cold: requestJson sends (and serialises the body) per subscription, nothing before.
    // The pause sits before the slot: a request waiting out a 429 holds none.
    return requestJson(this.fetchFn, request, this.#redact, {
      slots: this.requestSlots,
      scheduler: this.scheduler,
    }).pipe(this.pause.gate());
  }
}
