import type { IncomingHttpHeaders } from "node:http";

/** Request headers that stay between the browser and this server. */
const REQUEST_HEADERS_KEPT_HERE = ["cookie", "origin", "referer", "x-forwarded-host"];
/** Answer headers that stay between the service and this server. */
const ANSWER_HEADERS_KEPT_THERE = ["set-cookie", "set-cookie2"];

/**
 * The headers sent on to the Spell service: the browser's, including the key header
 * (`Authorization` or `x-api-key`) unchanged, without cookies (the add-in sends none, and a
 * cookie of this host is none of the service's business) or the page's origin.
 *
 * ## Example
 * ```ts
 * reply.from(url, { rewriteRequestHeaders: (_request, headers) => headersToService(headers) });
 * ```
 *
 * @param headers The browser's request headers (a copy).
 * @return The headers for the service.
 */
export function headersToService(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept = { ...headers };
  for (const name of REQUEST_HEADERS_KEPT_HERE) delete kept[name];
  return kept;
}

/**
 * The service's answer headers as sent to the browser, without cookies: a cookie the service
 * sets would otherwise land on the add-in's own origin.
 *
 * ## Example
 * ```ts
 * reply.from(url, { rewriteHeaders: (headers) => headersFromService(headers) });
 * ```
 *
 * @param headers The service's answer headers.
 * @return The headers for the browser.
 */
export function headersFromService<T extends Record<string, unknown>>(headers: T): T {
  const kept = { ...headers };
  for (const name of ANSWER_HEADERS_KEPT_THERE) delete kept[name];
  return kept;
}
