import type { FastifyInstance } from "fastify";
import { EmulatorError } from "../../emulator/emulatorError.js";
import { errorBody } from "../../emulator/errorBody.js";

type Hook = (request: InPageRequest, reply: InPageReply) => Promise<unknown> | unknown;
type Handler = (request: InPageRequest, reply: InPageReply) => Promise<unknown>;

interface Route {
  onRequest?: Hook;
  preHandler?: Hook;
  handler: Handler;
}

/** What the emulator's routes read of a request (the part of fastify's they use). */
export interface InPageRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  raw: { socket: { destroy(): void } };
}

/** What the emulator's routes use of a reply (the part of fastify's they use). */
interface InPageReply {
  raw: {
    writableFinished: boolean;
    on(event: "close", listener: () => void): void;
    off(event: "close", listener: () => void): void;
  };
  hijack(): void;
  code(statusCode: number): InPageReply;
  headers(headers: Record<string, string>): InPageReply;
}

/** A request as the page's fetch made it. */
export interface InPageCall {
  method: string;
  /** The path below the host, with its query (e.g. "/spells/getRun?runId=run_1"). */
  path: string;
  headers: Headers;
  body: string | undefined;
  signal: AbortSignal | undefined;
}

/** A dropped connection (the drop fault): the page's fetch fails as a browser's does. */
export class DroppedConnection extends TypeError {
  constructor() {
    super("Failed to fetch");
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * One host of the emulator in the page: the emulator's own route functions
 * (`registerStartRoute(app, context)` and the others) register on it as on a fastify instance,
 * and {@link InPageRoutes.answer} runs a call through the same hooks and handler as fastify
 * would (onRequest, preHandler, handler; an `EmulatorError` becomes the emulator's error body).
 * Only the transport differs: no socket, no CORS (the page calls its own origin).
 *
 * @example
 * ```ts
 * const base = new InPageRoutes();
 * registerStartRoute(base.asFastify(), context);
 * const response = await base.answer({ method: "POST", path: "/spells/start", ... });
 * ```
 */
export class InPageRoutes {
  private readonly routes = new Map<string, Route>();

  /** This host seen as the fastify instance the route functions expect. */
  asFastify(): FastifyInstance {
    const add =
      (method: string) =>
      (path: string, hooksOrHandler: Handler | Omit<Route, "handler">, handler?: Handler) => {
        const route: Route =
          typeof hooksOrHandler === "function"
            ? { handler: hooksOrHandler }
            : { ...hooksOrHandler, handler: handler as Handler };
        this.routes.set(`${method} ${path}`, route);
      };
    return {
      get: add("GET"),
      post: add("POST"),
      addHttpMethod: () => undefined,
    } as unknown as FastifyInstance;
  }

  /** Answers one call as the emulator's fastify host would. */
  async answer(call: InPageCall): Promise<Response> {
    const [pathname, search = ""] = call.path.split("?");
    const route = this.routes.get(`${call.method} ${pathname}`);
    if (!route) {
      return json(404, errorBody(404, "route_not_found", `No route ${call.method} ${pathname}`));
    }
    let hijacked = false;
    const closeListeners = new Set<() => void>();
    const headers: Record<string, string> = {};
    call.headers.forEach((value, name) => (headers[name] = value));
    const request: InPageRequest = {
      method: call.method,
      url: call.path,
      headers,
      query: Object.fromEntries(new URLSearchParams(search)),
      body: undefined,
      raw: { socket: { destroy: () => (hijacked = true) } },
    };
    let status = 200;
    const replyHeaders: Record<string, string> = {};
    const reply: InPageReply = {
      raw: {
        writableFinished: false,
        on: (_event, listener) => closeListeners.add(listener),
        off: (_event, listener) => closeListeners.delete(listener),
      },
      hijack: () => (hijacked = true),
      code(statusCode) {
        status = statusCode;
        return reply;
      },
      headers(more) {
        Object.assign(replyHeaders, more);
        return reply;
      },
    };
    const hangUp = () => closeListeners.forEach((listener) => listener());
    call.signal?.addEventListener("abort", hangUp, { once: true });
    try {
      await route.onRequest?.(request, reply);
      if (call.body !== undefined && call.body !== "") {
        try {
          request.body = JSON.parse(call.body);
        } catch {
          return json(400, errorBody(400, "invalid_json", "The body is not valid JSON"));
        }
      }
      await route.preHandler?.(request, reply);
      if (hijacked) throw new DroppedConnection();
      const result = await route.handler(request, reply);
      if (hijacked) throw new DroppedConnection();
      reply.raw.writableFinished = true;
      return json(status, result, replyHeaders);
    } catch (error) {
      if (error instanceof DroppedConnection) throw error;
      if (error instanceof EmulatorError) {
        return json(
          error.statusCode,
          { ...errorBody(error.statusCode, error.code, error.message), ...error.options.body },
          error.options.headers
        );
      }
      return json(500, errorBody(500, "internal_error", "Unexpected emulator error"));
    } finally {
      call.signal?.removeEventListener("abort", hangUp);
    }
  }
}
