import { Observable } from "rxjs";
import { SpellHttpError } from "../errors/SpellHttpError.js";
import { SpellNetworkError } from "../errors/SpellNetworkError.js";
import { SpellProtocolError } from "../errors/SpellProtocolError.js";
import type { Endpoint } from "../types.js";
import { parseRetryAfter } from "../internal/parseRetryAfter.js";

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
  method: "GET" | "POST";
  url: string;
  endpoint: Endpoint;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * A cold Observable of one JSON request: each subscription sends the request once, emits the
 * parsed 2xx body and completes. Unsubscribing before the answer aborts the request.
 *
 * Non-2xx answers error with `SpellHttpError`, a missing answer with `SpellNetworkError`, a 2xx
 * body that is not JSON with `SpellProtocolError`. `redact` scrubs every text that can end up in
 * an error (so an echoed API key never leaks).
 *
 * ```
 * subscribe   ──▶ fetch(url, { signal })
 * answer 2xx  ──▶ next(body), complete
 * unsubscribe ──▶ controller.abort()   (unless the answer already arrived)
 * ```
 *
 * ## Example
 * ```ts
 * requestJson(fetch, { method: "GET", url, endpoint: "getRun", headers }, (t) => t).subscribe(console.log);
 * ```
 * @internal
 */
export function requestJson(
  fetchFn: typeof fetch,
  request: JsonRequest,
  redact: (text: string) => string
): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    const controller = new AbortController();
    // This flag exists to make sure we don't `abort()` a fetch that has already finished when
    // tearing down after complete/error.
    let settled = false;

    const send = async (): Promise<unknown> => {
      let response: Response;
      try {
        response = await fetchFn(request.url, {
          method: request.method,
          // Content-Type only with a body: servers reject an empty JSON body on GET.
          headers:
            request.body === undefined
              ? request.headers
              : { ...request.headers, "Content-Type": "application/json" },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          signal: controller.signal,
        });
      } catch (cause) {
        throw new SpellNetworkError(request.method, request.endpoint, cause);
      }
      let text: string;
      try {
        text = redact(await response.text());
      } catch (cause) {
        // The connection dropped in the middle of the body.
        throw new SpellNetworkError(request.method, request.endpoint, cause);
      }
      const body = parseJson(text);
      if (!response.ok) {
        throw new SpellHttpError(
          response.status,
          body === undefined ? text : body,
          request.method,
          request.endpoint,
          parseRetryAfter(response.headers.get("retry-after"), Date.now())
        );
      }
      if (body === undefined) {
        throw new SpellProtocolError(request.method, request.endpoint, "not JSON", text);
      }
      return body;
    };

    send().then(
      (body) => {
        settled = true;
        subscriber.next(body);
        subscriber.complete();
      },
      (error: unknown) => {
        settled = true;
        // After an abort nobody listens any more; the subscriber is already closed.
        if (!controller.signal.aborted) subscriber.error(error);
      }
    );

    return () => {
      if (!settled) controller.abort();
    };
  });
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
