import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

/** Why a request may not read `/metrics`: the status and a sentence for the body. */
export interface MetricsRefusal {
  status: 401 | 403;
  message: string;
}

/**
 * Who may read `/metrics` (usage by user and spell, error rates: the organisation's business):
 * with a token configured (`SPELLRUN_METRICS_TOKEN`), only a request with
 * `Authorization: Bearer <token>`, from anywhere (compared in constant time); without one, only a
 * client on this machine (the socket's loopback address, never a forwarded header).
 *
 * ## Example
 * ```ts
 * const refusal = metricsRefusal(request.headers.authorization, request.raw.socket.remoteAddress, token);
 * if (refusal) return reply.code(refusal.status).send({ error: refusal.message });
 * ```
 *
 * @param authorization The request's `Authorization` header.
 * @param remoteAddress The address the request's connection comes from.
 * @param token The metrics token, when one is configured.
 * @return The refusal, or undefined when the request may read the metrics.
 */
export function metricsRefusal(
  authorization: string | undefined,
  remoteAddress: string | undefined,
  token: string | undefined
): MetricsRefusal | undefined {
  if (token !== undefined) {
    const given = /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1];
    if (given !== undefined && sameText(given, token)) return undefined;
    return { status: 401, message: "The metrics need Authorization: Bearer <metrics token>" };
  }
  if (isLoopback(remoteAddress)) return undefined;
  return {
    status: 403,
    message: "The metrics answer only on this machine unless SPELLRUN_METRICS_TOKEN is set",
  };
}

/** Equal texts, compared in a time that does not depend on where they differ. */
function sameText(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** 127.0.0.0/8, ::1, and IPv4 loopback addresses mapped into IPv6. */
function isLoopback(address: string | undefined): boolean {
  if (address === undefined || isIP(address.replace(/^::ffff:/i, "")) === 0) return false;
  if (address === "::1") return true;
  return /^(::ffff:)?127\./i.test(address);
}
