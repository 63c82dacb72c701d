import { setTimeout as delay } from "node:timers/promises";
import type {
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
} from "fastify";
import { isAuthorized } from "../auth.js";
import { EmulatorError } from "../emulatorError.js";
import type { EmulatorContext } from "../emulatorContext.js";
import type { Endpoint } from "../faultOptions.js";

const MUTATING: ReadonlySet<Endpoint> = new Set(["start", "bulkStart", "cancelBulk"]);
const READS: ReadonlySet<Endpoint> = new Set(["getRun", "getBulkRuns"]);

function countFault(context: EmulatorContext, kind: string): void {
  context.stats.faults[kind] = (context.stats.faults[kind] ?? 0) + 1;
}

/**
 * Answers the error status the `rateAnswerAfterStart` fault drew for this request, once its runs
 * exist; nothing when none was drawn.
 *
 * @example
 * ```ts
 * answerAfterWork(context, request); // throws EmulatorError(504, …) when drawn
 * ```
 */
export function answerAfterWork(context: EmulatorContext, request: FastifyRequest): void {
  const status = context.answerAfterWork.get(request);
  if (status === undefined) return;
  throw new EmulatorError(
    status,
    "injected_after_start",
    `Injected ${status} after the runs were created`
  );
}

/**
 * Destroys the connection without a response (a dropped-connection fault).
 *
 * @example
 * ```ts
 * return dropConnection(request, reply);
 * ```
 */
export function dropConnection(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.hijack();
  request.raw.socket?.destroy();
  return reply;
}

/**
 * The hooks every Spell endpoint runs, in order: count the request, check the key (401), refuse a
 * declared body above the `bodyLimitBytes` fault (413), add latency, then draw the faults: 429
 * with Retry-After, 503, 500 on reads, dropped connection, an error answered after a start.
 * They run after the body is parsed and before the handler, so a 429 or 503 never starts a run.
 *
 * @example
 * ```ts
 * app.post("/spells/start", { ...endpointHooks(context, "start") }, handler);
 * ```
 * @param context The emulator's shared state.
 * @param endpoint Which endpoint the route is.
 */
export function endpointHooks(
  context: EmulatorContext,
  endpoint: Endpoint
): { onRequest: onRequestHookHandler; preHandler: preHandlerHookHandler } {
  const onRequest: onRequestHookHandler = async (request) => {
    context.stats.requests[endpoint]++;
    // Before the body is read: a request without the key learns nothing about its body.
    if (!isAuthorized(request.headers, context.apiKey)) {
      throw new EmulatorError(
        401,
        "unauthorized",
        "Missing or wrong API key: send Authorization: Bearer <key> or x-api-key: <key>"
      );
    }
    const bodyLimit = context.faults.options.bodyLimitBytes;
    const declared = Number(request.headers["content-length"] ?? 0);
    if (bodyLimit !== undefined && declared > bodyLimit && context.faults.appliesTo(endpoint)) {
      countFault(context, "413");
      throw new EmulatorError(
        413,
        "body_too_large",
        `Request body of ${declared} bytes is above the limit of ${bodyLimit} bytes`
      );
    }
    const latencyMs = context.faults.options.latencyMs ?? 0;
    if (latencyMs > 0 && context.faults.appliesTo(endpoint)) {
      countFault(context, "latency");
      await delay(latencyMs);
    }
  };

  const preHandler: preHandlerHookHandler = async (request, reply) => {
    const faults = context.faults;
    const options = faults.options;
    if (faults.roll(endpoint, options.rate429)) {
      countFault(context, "429");
      const retryAfter = String(options.retryAfterSeconds ?? 1);
      throw new EmulatorError(
        429,
        "rate_limited",
        `Too many requests; retry after ${retryAfter} s`,
        {
          headers: { "retry-after": retryAfter },
        }
      );
    }
    if (faults.roll(endpoint, options.rate503)) {
      countFault(context, "503");
      throw new EmulatorError(
        503,
        "unavailable",
        "Service temporarily unavailable; nothing was started"
      );
    }
    if (READS.has(endpoint) && faults.roll(endpoint, options.rate500OnReads)) {
      countFault(context, "500");
      throw new EmulatorError(500, "internal_error", "Injected internal error on a read");
    }
    if (faults.roll(endpoint, options.dropRate)) {
      countFault(context, "drop");
      if (MUTATING.has(endpoint) && (options.dropPhase ?? "after") === "after") {
        context.dropAfterWork.add(request);
      } else {
        dropConnection(request, reply);
        return;
      }
    }
    if (endpoint !== "cancelBulk" && MUTATING.has(endpoint)) {
      if (faults.roll(endpoint, options.rateAnswerAfterStart)) {
        countFault(context, "answerAfterStart");
        context.answerAfterWork.set(request, options.answerAfterStartStatus ?? 500);
      }
    }
  };

  return { onRequest, preHandler };
}
