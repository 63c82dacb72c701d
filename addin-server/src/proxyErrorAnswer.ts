import { AnswerTooLargeError, ForwardTimeoutError, UnknownEncodingError } from "./forwardCall";

/** An error answer of this server in the service's error shape. */
export interface ProxyErrorAnswer {
  statusCode: number;
  error: string;
  code: string;
  message: string;
}

/**
 * The answer to the add-in when a forwarded call got no answer from the Spell service, in the
 * service's error shape, with the status the add-in's retry policy reads right: 503 when the
 * service refused the connection, its name is unknown or no connection was made in time (nothing
 * reached it, so a start may be sent again), 504 when it did not finish its answer within the total time limit, 502 otherwise
 * (broken off, or larger than the answer limit). The message names no header.
 *
 * ## Example
 * ```ts
 * const answer = proxyErrorAnswer(error); // { statusCode: 503, error: "Service Unavailable", code: "upstream_unreachable", message: "…" }
 * ```
 *
 * @param error What the forwarding reported.
 * @return The status and body to answer with.
 */
export function proxyErrorAnswer(error: unknown): ProxyErrorAnswer {
  const code = causeCode(error);
  // Nothing reached the service: no connection was made.
  if (
    code === "ECONNREFUSED" ||
    code === "ENOTFOUND" ||
    code === "EAI_AGAIN" ||
    code === "UND_ERR_CONNECT_TIMEOUT"
  ) {
    return {
      statusCode: 503,
      error: "Service Unavailable",
      code: "upstream_unreachable",
      message: "The add-in's host could not reach the Spell service (nothing was sent to it).",
    };
  }
  if (
    error instanceof ForwardTimeoutError ||
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT"
  ) {
    return {
      statusCode: 504,
      error: "Gateway Timeout",
      code: "upstream_timeout",
      message: "The Spell service did not answer the add-in's host in time.",
    };
  }
  if (
    error instanceof UnknownEncodingError ||
    (error as { code?: unknown })?.code === "Z_DATA_ERROR"
  ) {
    return {
      statusCode: 502,
      error: "Bad Gateway",
      code: "upstream_bad_encoding",
      message: "The Spell service's answer came in an encoding the add-in's host could not read.",
    };
  }
  if (error instanceof AnswerTooLargeError) {
    return {
      statusCode: 502,
      error: "Bad Gateway",
      code: "upstream_too_large",
      message: `The Spell service's answer was larger than the add-in's host passes on (${error.limitBytes} bytes).`,
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
    if (typeof code === "string" && /^E[A-Z_]+$|^UND_ERR/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The answer to the add-in when the service answered with something other than JSON (an HTML
 * error page of a proxy in front of it, text, a body without a type): a JSON 502 that names the
 * status and media type it got, never the body (service text is data, not markup).
 *
 * ## Example
 * ```ts
 * notJsonAnswer(500, "text/html; charset=utf-8").message;
 * // "The Spell service answered HTTP 500 with text/html instead of JSON; the add-in's host does not pass that on."
 * ```
 *
 * @param upstreamStatus The service's status.
 * @param contentType The service's `Content-Type`, if any.
 * @return The status and body to answer with.
 */
export function notJsonAnswer(upstreamStatus: number, contentType: unknown): ProxyErrorAnswer {
  const mediaType =
    typeof contentType === "string"
      ? /^\s*([\w.+-]{1,40}\/[\w.+-]{1,60})/.exec(contentType)?.[1]
      : undefined;
  return {
    statusCode: 502,
    error: "Bad Gateway",
    code: "upstream_not_json",
    message: `The Spell service answered HTTP ${upstreamStatus} with ${mediaType ?? "a body of no type"} instead of JSON; the add-in's host does not pass that on.`,
  };
}
