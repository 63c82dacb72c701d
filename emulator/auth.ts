import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

function sameKey(given: string, expected: string): boolean {
  // TextEncoder, not Buffer: the playground runs these checks in the browser too.
  const givenBytes = new TextEncoder().encode(given);
  const expectedBytes = new TextEncoder().encode(expected);
  return givenBytes.length === expectedBytes.length && timingSafeEqual(givenBytes, expectedBytes);
}

/**
 * Whether a request carries the API key as `Authorization: Bearer <key>` or `x-api-key: <key>`.
 * Node lower-cases header names, so `Authorization` and `authorization` both work; the
 * `Bearer` scheme is case-insensitive too (RFC 7235).
 *
 * @example
 * ```ts
 * isAuthorized({ "x-api-key": "spellrun-dev-key" }, "spellrun-dev-key"); // true
 * ```
 * @param headers The request headers.
 * @param apiKey The accepted key.
 */
export function isAuthorized(headers: IncomingHttpHeaders, apiKey: string): boolean {
  const bearer = /^bearer\s+(.+)$/i.exec(headers.authorization?.trim() ?? "")?.[1];
  if (bearer !== undefined && sameKey(bearer.trim(), apiKey)) return true;
  const headerKey = headers["x-api-key"];
  return typeof headerKey === "string" && sameKey(headerKey.trim(), apiKey);
}
