/**
 * The answer to the add-in when a forwarded call got no answer from the Spell service, in the
 * service's error shape, with the status the add-in's retry policy reads right: 503 when the
 * service refused the connection or its name is unknown (nothing reached it, so a start may be
 * sent again), 504 when it did not answer in time, 502 otherwise. The message names no header.
 *
 * ## Example
 * ```ts
 * const answer = proxyErrorAnswer(error); // { statusCode: 503, error: "Service Unavailable", code: "upstream_unreachable", message: "…" }
 * ```
 *
 * @param error What the forwarding reported.
 * @return The status and body to answer with.
 */
export function proxyErrorAnswer(error: unknown): {
  statusCode: number;
  error: string;
  code: string;
  message: string;
} {
  const code = causeCode(error);
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return {
      statusCode: 503,
      error: "Service Unavailable",
      code: "upstream_unreachable",
      message: "The add-in's host could not reach the Spell service (nothing was sent to it).",
    };
  }
  const statusCode = (error as { statusCode?: unknown })?.statusCode;
  if (statusCode === 504 || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
    return {
      statusCode: 504,
      error: "Gateway Timeout",
      code: "upstream_timeout",
      message: "The Spell service did not answer the add-in's host in time.",
    };
  }
  return {
    statusCode: 502,
    error: "Bad Gateway",
    code: "upstream_failed",
    message: "The Spell service's answer to the add-in's host broke off.",
  };
}

/** The system error code of an error or of one of its causes. */
function causeCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z]+$|^UND_ERR/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
