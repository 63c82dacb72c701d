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
 * The hooks every Spell endpoint runs, in order: count the request, check the key (401), add
 * latency, then draw the faults: 429 with Retry-After, 503, 500 on reads, dropped connection.
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
  };

  return { onRequest, preHandler };
}
