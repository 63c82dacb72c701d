import { asyncScheduler, Observable, type SchedulerLike, type Subscription } from "rxjs";
import type { ConcurrencyLimiter } from "../util/ConcurrencyLimiter.js";
import { SpellHttpError } from "../errors/SpellHttpError.js";
import { SpellNetworkError } from "../errors/SpellNetworkError.js";
import { SpellProtocolError } from "../errors/SpellProtocolError.js";
import { SpellResponseTooLargeError } from "../errors/SpellResponseTooLargeError.js";
import type { Endpoint, HttpMethod } from "../types.js";
import { parseRetryAfter } from "../util/parseRetryAfter.js";
import { parseJsonKeepingIds } from "./parseJsonKeepingIds.js";
import type { Redactor } from "./keyRedactor.js";
import type { SpellLogger, SpellLogRequest } from "../SpellLogEvent.js";
import { emitLog, errorText } from "../util/emitLog.js";

/**
 * One HTTP request as the transport sends it.
 *
 * ## Example
 * ```ts
 * const request: JsonRequest = { method: "POST", url, endpoint: "cancelBulk", headers, body: { groupId } };
 * ```
 * @internal
 */
export interface JsonRequest {
  method: HttpMethod;
  url: string;
  endpoint: Endpoint;
  headers: Record<string, string>;
  body?: unknown;
  /** True where the answer's body does not matter (cancelBulk): any 2xx is success. */
  ignoreBody?: boolean;
  /** Called when the request is handed to fetch, after its wait for a slot. */
  onSent?: () => void;
  /** Largest answer read; more fails with `SpellResponseTooLargeError`. */
  maxBytes: number;
  /** Time limit from sending to the last byte (not counting the wait for a slot); none when absent. */
  limitMs?: number;
  /** The error when `limitMs` passes (the request is aborted). */
  timeoutError?: () => Error;
  /** Where this request's log events go (sent, answered, failed, aborted); none when absent. */
  log?: RequestLog;
}

/**
 * How one request is logged: the user's logger, what the events say about the request, whether
 * bodies are logged, and which id an answer names.
 *
 * ## Example
 * ```ts
 * const log: RequestLog = { logger: console.log, about: { method: "GET", endpoint: "getRun", url, runId: 7 }, bodies: false };
 * ```
 * @internal
 */
export interface RequestLog {
  logger: SpellLogger;
  about: SpellLogRequest;
  /** Log the request and answer bodies (scrubbed of the key). */
  bodies: boolean;
  /** The run or group id an answer names (start: runId, bulkStart: groupId). */
  idsOf?: (body: unknown) => Partial<SpellLogRequest>;
}

/**
 * What `requestJson` shares between requests: the client-wide request slots and the clock of
 * the time limits.
 *
 * ## Example
 * ```ts
 * const transport: RequestTransport = { slots: new ConcurrencyLimiter(8), scheduler: asyncScheduler };
 * ```
 * @internal
 */
export interface RequestTransport {
  /** Every request holds one slot from sending until its fetch has really ended. */
  slots?: ConcurrencyLimiter;
  scheduler?: SchedulerLike;
}

/**
 * A cold Observable of one JSON request: each subscription sends the request once, emits the
 * parsed 2xx body and completes. Unsubscribing before the answer aborts the request.
 *
 * Non-2xx answers error with `SpellHttpError`, a missing answer with `SpellNetworkError`, a 2xx
 * body that is not JSON with `SpellProtocolError`. `redact` scrubs every answer, 2xx or not, before
 * anything else sees it (string by string once parsed, so the JSON stays intact), so a key the service echoes (in an error body, in outputs, inside a run
 * id) never reaches an error, a snapshot, the workbook or a later URL. Numeric ids beyond 2^53
 * are kept exactly (see `parseJsonKeepingIds`).
 *
 * With `transport.slots`, the request waits for a slot before it is sent and keeps it until
 * its fetch has really ended; `request.limitMs` counts from sending to the last byte.
 *
 * ```
 * subscribe   ──▶ (slot) fetch(url, { signal })
 * answer 2xx  ──▶ next(body), complete
 * limitMs     ──▶ error(timeoutError()), controller.abort()
 * unsubscribe ──▶ controller.abort()   (unless the answer already arrived)
 * ```
 *
 * ## Example
 * ```ts
 * requestJson(fetch, { method: "GET", url, endpoint: "getRun", headers, maxBytes }, keyRedactor(key)).subscribe(console.log);
 * ```
 * @internal
 */
export function requestJson(
  fetchFn: typeof fetch,
  request: JsonRequest,
  redact: Redactor,
  transport: RequestTransport = {}
): Observable<unknown> {
  const scheduler = transport.scheduler ?? asyncScheduler;
  return new Observable<unknown>((subscriber) => {
    const controller = new AbortController();
    // This flag exists to make sure we don't `abort()` a fetch that has already finished when
    // tearing down after complete/error.
    let settled = false;
    let timer: Subscription | undefined;

    const { log } = request;
    // Set when the request is sent, and once its outcome is logged (answer, failure, limit).
    let sentAt: number | undefined;
    let logged = false;
    const logEnd = (outcome: { status: number; body: unknown } | { error: unknown }) => {
      if (!log || logged) return;
      logged = true;
      const durationMs = scheduler.now() - (sentAt ?? scheduler.now());
      if ("error" in outcome) {
        const status =
          outcome.error instanceof SpellHttpError ? { status: outcome.error.status } : {};
        emitLog(log.logger, {
          type: "failed",
          ...log.about,
          ...status,
          durationMs,
          error: errorText(outcome.error),
        });
        return;
      }
      emitLog(log.logger, {
        type: "response",
        ...log.about,
        ...log.idsOf?.(outcome.body),
        status: outcome.status,
        durationMs,
        ...(log.bodies ? { body: outcome.body } : {}),
      });
    };

    const sendNow = (release: () => void) => {
      // Serialised before anything else: inputs JSON cannot hold (a BigInt, a cycle) fail with
      // their TypeError before the request counts as sent (`onSent`, the "request" log line, the
      // timer), since nothing leaves; not a network failure either.
      let sent: string | undefined;
      try {
        sent = request.body === undefined ? undefined : JSON.stringify(request.body);
      } catch (error) {
        settled = true;
        release();
        subscriber.error(error);
        return;
      }
      const { limitMs } = request;
      if (limitMs !== undefined && Number.isFinite(limitMs)) {
        timer = scheduler.schedule(() => {
          const error = request.timeoutError?.() ?? new Error(`No answer in ${limitMs} ms`);
          logEnd({ error });
          subscriber.error(error);
        }, limitMs);
      }
      request.onSent?.();
      sentAt = scheduler.now();
      if (log) {
        emitLog(log.logger, {
          type: "request",
          ...log.about,
          ...(log.bodies && request.body !== undefined ? { body: redact.json(request.body) } : {}),
        });
      }
      send(fetchFn, request, sent, redact, controller.signal)
        .then(
          (answer) => {
            settled = true;
            logEnd(answer);
            subscriber.next(answer.body);
            subscriber.complete();
          },
          (error: unknown) => {
            settled = true;
            // After an abort nobody listens any more; the subscriber is already closed.
            if (!controller.signal.aborted) {
              logEnd({ error });
              subscriber.error(error);
            }
          }
        )
        // The slot is freed when the request has really ended (an aborted fetch a moment after
        // the unsubscribe), so the service never sees more requests at once than the limit.
        .finally(release);
    };
    const leaveQueue = transport.slots ? transport.slots.acquire(sendNow) : noQueue(sendNow);

    return () => {
      leaveQueue();
      timer?.unsubscribe();
      if (!settled) {
        if (log && sentAt !== undefined && !logged) {
          logged = true;
          emitLog(log.logger, {
            type: "aborted",
            ...log.about,
            durationMs: scheduler.now() - sentAt,
          });
        }
        controller.abort();
      }
    };
  });
}

function noQueue(sendNow: (release: () => void) => void): () => void {
  sendNow(() => undefined);
  return () => undefined;
}

async function send(
  fetchFn: typeof fetch,
  request: JsonRequest,
  sent: string | undefined,
  redact: Redactor,
  signal: AbortSignal
): Promise<{ status: number; body: unknown }> {
  const { method, endpoint } = request;
  let response: Response;
  let text: string;
  try {
    response = await fetchFn(request.url, {
      method,
      headers: request.headers,
      body: sent,
      signal,
      // The API never redirects: a redirect is not followed, so the key and the body never go
      // to another origin (fetch would forward both).
      redirect: "manual",
    });
    text = await readText(response, request);
  } catch (cause) {
    if (cause instanceof SpellResponseTooLargeError) throw cause;
    // No answer, or the connection dropped in the middle of the body.
    throw new SpellNetworkError(method, endpoint, cause, request.url);
  }
  if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
    // Browsers hide the Location of a manual redirect (an "opaqueredirect" with status 0).
    const location = response.headers.get("location");
    throw new SpellProtocolError(
      method,
      endpoint,
      `a redirect (HTTP ${response.status || "3xx"}${location ? ` to ${redact.text(location)}` : ""}), ` +
        "which the API never needs: not followed, so the key was not sent there",
      undefined,
      request.url
    );
  }
  if (request.ignoreBody && response.ok) return { status: response.status, body: undefined };
  if (!response.ok) {
    // Every answer is scrubbed of the key before anything else sees it.
    const body = parseJson(text);
    throw new SpellHttpError(
      response.status,
      body === undefined ? redact.text(text) : redact.json(body),
      method,
      endpoint,
      parseRetryAfter(response.headers.get("retry-after"), Date.now()),
      request.url
    );
  }
  const body = parseJson(text);
  if (body === undefined) {
    throw new SpellProtocolError(method, endpoint, "not JSON", redact.text(text), request.url);
  }
  return { status: response.status, body: redact.answer(body, text) };
}

/**
 * The body as text, read chunk by chunk and given up (the stream cancelled) as soon as it passes
 * `maxBytes`, so a huge answer never sits in memory whole.
 */
async function readText(response: Response, request: JsonRequest): Promise<string> {
  const { method, endpoint, maxBytes } = request;
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new SpellResponseTooLargeError(method, endpoint, maxBytes, request.url);
  }
  if (!response.body || typeof response.body.getReader !== "function") {
    // A fetch without web streams (cross-fetch's node-fetch in Node gives a Node stream): the
    // size can only be checked afterwards (content-length was checked above).
    const whole = await response.text();
    if (whole.length > maxBytes)
      throw new SpellResponseTooLargeError(method, endpoint, maxBytes, request.url);
    return whole;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new SpellResponseTooLargeError(method, endpoint, maxBytes, request.url);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return parseJsonKeepingIds(text);
  } catch {
    return undefined;
  }
}
