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
  parseBulkRuns,
  type BulkRunAnswer,
  parseGroupId,
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
import type { SpellEndpoints } from "./SpellEndpoints.js";
import { resolveFetch } from "./resolveFetch.js";
import { RateLimitPause } from "./RateLimitPause.js";
import type { RequestLog } from "./requestJson.js";
import type { SpellLogger, SpellLogRequest } from "../SpellLogEvent.js";
import { emitLog, errorText } from "../util/emitLog.js";
import { toRunState } from "./parseResponses.js";
import { countRunStates } from "../countRunStates.js";

export type { SpellApiOptions } from "./SpellApiOptions.js";
export type { SpellEndpoints } from "./SpellEndpoints.js";

/** Default of `SpellClientOptions.maxInFlight`, documented there. */
export const DEFAULT_MAX_IN_FLIGHT = 8;
/** Default of `SpellClientOptions.waitTimeoutMs`, documented there. */
const DEFAULT_WAIT_TIMEOUT_MS = 120_000;

/** Default of `SpellClientOptions.maxResponseBytes`, documented there. */
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Defaults of `RequestTimeouts`, documented there. */
const DEFAULT_READ_TIMEOUT_MS = 30_000;
const DEFAULT_START_TIMEOUT_MS = 60_000;

/**
 * The one place that knows the service's paths, headers and body shapes.
 *
 * ## Example
 * ```ts
 * const api = new SpellApi({ apiKey, baseUrl, pollBaseUrl });
 * api.getRun("run-1").subscribe((answer) => console.log(answer.state));
 * ```
 * @internal
 */
export class SpellApi implements SpellEndpoints {
  private readonly fetchFn: typeof fetch;
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
  constructor(
    options: SpellApiOptions,
    shared?: { requestSlots: ConcurrencyLimiter; pause: RateLimitPause }
  ) {
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
  withRetry(retry: RetryOptions): SpellApi {
    return new SpellApi(
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

  bulkStartOnce(
    spellId: string,
    inputsList: readonly Record<string, unknown>[],
    onSent?: () => void
  ): Observable<string> {
    const target = this.target("bulkStart");
    return this.send(target, { spellId, inputs: inputsList }, { onSent }).pipe(
      map((body) => parseGroupId(body, target))
    );
  }

  getBulkRuns(groupId: string): Observable<BulkRunAnswer[]> {
    const target = this.target("getBulkRuns");
    return this.send(target, { groupId }, { ids: { groupId } }).pipe(
      this.retry(target, { groupId }),
      map((body) => parseBulkRuns(body, target)),
      tap((answers) =>
        this.log(() => ({
          type: "poll",
          ...target,
          groupId,
          runs: answers.length,
          counts: countRunStates(answers.map((answer) => ({ state: toRunState(answer.state) }))),
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
   * getBulkRuns on the base host and getRun on the poll host for `probeId`, each sent once (no
   * retry) and unparsed: the harmless questions of `SpellClient.checkConnection`.
   */
  probeHosts(probeId: string): { base: Observable<unknown>; poll: Observable<unknown> } {
    return {
      base: this.send(this.target("getBulkRuns"), { groupId: probeId }),
      poll: this.send(this.target("getRun", probeId)),
    };
  }

  /**
   * Whether a host that gave no readable answer answers at all: one keyless `no-cors` GET of its
   * probe URL. A browser resolves it with an opaque response when the host answered (its answer
   * was withheld for want of CORS consent) and rejects it when nothing answered; where there is
   * no CORS (Node) there is no opaque response, so this says `false`. Never sends the key.
   */
  async answersWithoutCorsConsent(host: "base" | "poll", probeId: string): Promise<boolean> {
    const { url } = host === "base" ? this.target("getBulkRuns") : this.target("getRun", probeId);
    try {
      const response = await this.fetchFn(url, {
        method: "GET",
        mode: "no-cors",
        credentials: "omit",
        // A no-cors request must follow redirects (browsers refuse others); it carries no key.
        redirect: "follow",
        signal: AbortSignal.timeout(this.readTimeoutMs),
      });
      return response.type === "opaque";
    } catch {
      return false;
    }
  }

  /**
   * Method, endpoint and URL of a request: getRun is a GET on the poll host with the run id in
   * the query, every other endpoint a POST on the base host.
   */
  private target(endpoint: Endpoint, runId?: string | number): RequestTarget {
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

  private retry<T>(target: RequestTarget, ids: Partial<SpellLogRequest> = {}) {
    return retryTransient<T>(
      target.endpoint,
      this.retryOptions,
      this.scheduler,
      this.retryLog(target.endpoint, ids)
    );
  }

  /** Builds and emits an event only when someone listens (a poll's counts cost a pass). */
  private log(event: () => Parameters<SpellLogger>[0]): void {
    if (this.logger) emitLog(this.logger, event());
  }

  /**
   * Sends one request per subscription, with a JSON body when given, under its time limit: the
   * wait-mode limit when `limitMs` is given, else the start or read limit by endpoint.
   */
  private send(
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
