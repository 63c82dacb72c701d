import type { IncomingHttpHeaders } from "node:http";
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
      headers: call.headers,
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
    return { statusCode: answer.statusCode, headers: answer.headers, body: Buffer.concat(chunks) };
  } catch (error) {
    if (controller.signal.aborted) throw new ForwardTimeoutError(call.timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
