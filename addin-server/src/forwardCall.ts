import type { IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { request, type Dispatcher } from "undici";

/** One call to the Spell service, as the add-in server sends it on. */
export interface ForwardedCall {
  /** The service's address of the endpoint, with the query. */
  url: string;
  method: "GET" | "POST";
  /** The headers for the service (`headersToService`). */
  headers: IncomingHttpHeaders;
  /** The browser's body, byte for byte. */
  body?: Buffer;
  /** Total time limit, from sending the call to the last byte of the answer, in ms. */
  timeoutMs: number;
  /** Largest answer body, in bytes. */
  answerLimitBytes: number;
  /** The connection pool (undici `Agent`). */
  dispatcher: Dispatcher;
}

/** The service's whole answer. */
export interface ServiceAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * The service did not finish its answer within the total time limit (a slow or dripping service):
 * the call was cut off.
 *
 * ## Example
 * ```ts
 * if (error instanceof ForwardTimeoutError) reply.code(504);
 * ```
 */
export class ForwardTimeoutError extends Error {
  override name = "ForwardTimeoutError";
  /**
   * @param timeoutMs The limit that was reached.
   */
  constructor(readonly timeoutMs: number) {
    super(`The Spell service did not finish its answer within ${timeoutMs} ms.`);
  }
}

/**
 * The service's answer was larger than the limit: not passed on.
 *
 * ## Example
 * ```ts
 * if (error instanceof AnswerTooLargeError) reply.code(502);
 * ```
 */
export class AnswerTooLargeError extends Error {
  override name = "AnswerTooLargeError";
  /**
   * @param limitBytes The limit that was passed.
   */
  constructor(readonly limitBytes: number) {
    super(`The Spell service's answer was larger than ${limitBytes} bytes.`);
  }
}

/**
 * The service's answer came in an encoding this server does not know: not passed on.
 *
 * ## Example
 * ```ts
 * if (error instanceof UnknownEncodingError) reply.code(502);
 * ```
 */
export class UnknownEncodingError extends Error {
  override name = "UnknownEncodingError";
  /**
   * @param encoding The answer's `Content-Encoding`.
   */
  constructor(readonly encoding: string) {
    super(`The Spell service's answer came in an unknown encoding (${encoding.slice(0, 40)}).`);
  }
}

/**
 * Sends one call to the service and reads its whole answer under one total time limit: a service
 * that sends its answer a byte at a time is cut off at the limit like one that sends nothing
 * (undici's own timeouts are idle times, reset by every chunk). Never retried, never redirected.
 *
 * ## Example
 * ```ts
 * const answer = await forwardCall({ url, method: "POST", headers, body, timeoutMs: 150_000, answerLimitBytes, dispatcher });
 * ```
 *
 * @param call What to send, where, and the limits.
 * @return The answer, whole.
 * @throws ForwardTimeoutError at the time limit, AnswerTooLargeError past the size limit, or
 *   undici's error (with the system error as its `code` or `cause`) when the service is not reached.
 */
export async function forwardCall(call: ForwardedCall): Promise<ServiceAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), call.timeoutMs);
  try {
    const answer = await request(call.url, {
      method: call.method,
      headers: { ...call.headers, "accept-encoding": "identity" },
      body: call.body,
      signal: controller.signal,
      dispatcher: call.dispatcher,
      maxRedirections: 0,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > call.answerLimitBytes) {
        answer.body.destroy();
        throw new AnswerTooLargeError(call.answerLimitBytes);
      }
      chunks.push(chunk);
    }
    const body = decoded(
      Buffer.concat(chunks),
      answer.headers["content-encoding"],
      call.answerLimitBytes
    );
    return { statusCode: answer.statusCode, headers: answer.headers, body };
  } catch (error) {
    if (controller.signal.aborted) throw new ForwardTimeoutError(call.timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The body without its content encoding (none, identity, gzip, deflate, br). */
function decoded(
  body: Buffer,
  encoding: string | string[] | undefined,
  limitBytes: number
): Buffer {
  const name = String(encoding ?? "identity")
    .trim()
    .toLowerCase();
  if (name === "identity" || name === "" || body.length === 0) return body;
  // Never more than the answer limit unpacked (a small body may unpack to gigabytes).
  const options = { maxOutputLength: limitBytes };
  try {
    if (name === "gzip" || name === "x-gzip") return gunzipSync(body, options);
    if (name === "deflate") return inflateSync(body, options);
    if (name === "br") return brotliDecompressSync(body, options);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new AnswerTooLargeError(limitBytes);
    }
    throw error;
  }
  throw new UnknownEncodingError(name);
}
