import type { IncomingHttpHeaders } from "node:http";

/**
 * Request headers that end at this server: hop-by-hop headers (RFC 9110 7.6.1) and the ones
 * undici sets itself (`host`, `content-length`), `expect` (this server already answered
 * `100 Continue`), the browser's cookies, origin and referrer, and every header a client could
 * use to pose as a proxy or to rewrite the path at the service's front door.
 */
const REQUEST_HEADERS_KEPT_HERE = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "http2-settings",
  "host",
  "content-length",
  "expect",
  // Asked for unencoded by forwardCall, which decodes what comes encoded anyway.
  "accept-encoding",
  "cookie",
  "origin",
  "referer",
  "forwarded",
  "via",
  "x-real-ip",
  "x-client-ip",
  "true-client-ip",
  "client-ip",
  "cf-connecting-ip",
  "x-cluster-client-ip",
  "x-rewrite-url",
]);
/** The browser's credentials and request name, replaced in organisation mode. */
const CREDENTIAL_HEADERS = new Set(["authorization", "x-api-key", "idempotency-key"]);

/** The organisation's Spell key as a request header (organisation mode). */
export interface ServiceKeyHeader {
  /** `authorization` (the value is then `Bearer <key>`) or `x-api-key`. */
  name: "authorization" | "x-api-key";
  /** The header's value. */
  value: string;
}

/** Request header prefixes that end at this server (`x-forwarded-for`, `proxy-authorization`, …). */
const REQUEST_PREFIXES_KEPT_HERE = ["x-forwarded-", "x-original-", "proxy-"];

/**
 * Answer headers of the service that reach the browser: `retry-after` (the add-in's retry policy
 * reads it) and `content-type` (JSON only, see `isJsonContentType`). Everything else stays here:
 * the service's own CSP, HSTS, `X-Content-Type-Options`, cookies, `Clear-Site-Data`, `Refresh`,
 * CORS headers, hop-by-hop headers and `Location` (the API never redirects) would otherwise act on
 * the add-in's own origin, where the pages and the key live. The add-in's client reads no other
 * answer header (src/http/requestJson.ts: `retry-after`, `content-length`, which this server sets
 * itself, and `location` of a redirect, which this server never passes on).
 */
const ANSWER_HEADERS_PASSED_ON = ["retry-after"] as const;

/**
 * The headers sent on to the Spell service: the browser's, including the key header
 * (`Authorization` or `x-api-key`) unchanged, without hop-by-hop headers (and those the
 * `Connection` header names), cookies, the page's origin, or any forwarding or proxy header a
 * client sent (`X-Forwarded-For`, `Forwarded`, `X-Real-IP`, `Proxy-Authorization`,
 * `X-Original-URL`, …): the service sees this server as the client, never a client's claim.
 *
 * ## Example
 * ```ts
 * headersToService({ "x-api-key": "k", "x-forwarded-for": "10.0.0.1", connection: "close" }); // { "x-api-key": "k" }
 * ```
 *
 * In organisation mode (`serviceKey` given) the browser's `Authorization` (the user's token),
 * `x-api-key` and `Idempotency-Key` end here too, and the organisation's key is set instead.
 *
 * @param headers The browser's request headers.
 * @param serviceKey Organisation mode: the header and value of the organisation's Spell key.
 * @return The headers for the service (a new object).
 */
export function headersToService(
  headers: IncomingHttpHeaders,
  serviceKey?: ServiceKeyHeader
): IncomingHttpHeaders {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (
      REQUEST_HEADERS_KEPT_HERE.has(lower) ||
      named.includes(lower) ||
      REQUEST_PREFIXES_KEPT_HERE.some((prefix) => lower.startsWith(prefix))
    ) {
      continue;
    }
    if (serviceKey && CREDENTIAL_HEADERS.has(lower)) continue;
    kept[lower] = value;
  }
  if (serviceKey) kept[serviceKey.name] = serviceKey.value;
  return kept;
}

/**
 * Whether an answer's `Content-Type` is JSON (`application/json` or `application/<x>+json`, any
 * parameters). Anything else (an HTML error page of a proxy in front of the service, text, none
 * with a body) is not passed on.
 *
 * ## Example
 * ```ts
 * isJsonContentType("application/json; charset=utf-8"); // true
 * isJsonContentType("text/html"); // false
 * ```
 *
 * @param contentType The header's value.
 * @return `true` for JSON.
 */
export function isJsonContentType(contentType: unknown): contentType is string {
  return (
    typeof contentType === "string" &&
    /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(contentType)
  );
}

/**
 * The service's answer headers that reach the browser: only `retry-after`, and `content-type`
 * when it is JSON (`ANSWER_HEADERS_PASSED_ON`). Each is passed as one string.
 *
 * ## Example
 * ```ts
 * headersFromService({ "content-type": "application/json", "retry-after": "5", "set-cookie": ["a=1"] });
 * // { "content-type": "application/json", "retry-after": "5" }
 * ```
 *
 * @param headers The service's answer headers (lower-case names).
 * @return The headers for the browser.
 */
export function headersFromService(
  headers: Record<string, string | string[] | undefined>
): Record<string, string> {
  const passed: Record<string, string> = {};
  const contentType = headers["content-type"];
  if (isJsonContentType(contentType)) passed["content-type"] = contentType;
  for (const name of ANSWER_HEADERS_PASSED_ON) {
    const value = headers[name];
    if (typeof value === "string" && /^[\w ,:.+-]{1,64}$/.test(value)) passed[name] = value;
  }
  return passed;
}
