import { existsSync } from "node:fs";
import path from "node:path";
import fastifyHelmet from "@fastify/helmet";
import fastifyReplyFrom from "@fastify/reply-from";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { AddinServerOptions } from "./AddinServerOptions";
import { OFFICE_FRAME_ANCESTORS, contentSecurityPolicy } from "./contentSecurityPolicy";
import { headersFromService, headersToService } from "./forwardedHeaders";
import { installOrganisationMode } from "./organisation/organisationMode";
import { proxyErrorAnswer } from "./proxyErrorAnswer";
import { serviceOrigin } from "./serviceOrigin";

/**
 * The service's endpoints, as the add-in calls them through this server (the core's
 * `SpellApi` builds `${baseUrl}/spells/<endpoint>` and `${pollBaseUrl}/spells/getRun`). Only
 * these five are forwarded, each to its own host: anything else is this server's 404, so it can
 * never be used to reach another path, let alone another host.
 */
const BASE_HOST_ENDPOINTS = ["start", "bulkStart", "cancelBulk", "getBulkRuns"] as const;
const POLL_HOST_ENDPOINT = "getRun";

// The paths the add-in calls "through the add-in's host" (addin/serviceRoute.ts, and the dev
// server's proxy in webpack.config.js): the same three places must agree.
const SERVICE_PREFIX = "/spell-api";
const POLL_PREFIX = "/spell-poll";

const MIB = 1024 * 1024;
/** Longest time a client may take to send its request. */
const RECEIVE_TIMEOUT_MS = 30_000;

/**
 * Builds the production add-in server (not listening yet): the built add-in as static files over
 * HTTPS with security headers and a Content-Security-Policy, and `/spell-api/spells/*`,
 * `/spell-poll/spells/getRun` forwarded to the two configured Spell hosts, so that for the
 * browser every call is same-origin and the service needs no CORS. Stateless: run as many as
 * needed behind a load balancer.
 *
 * - Forwards only those five endpoints, only to the two configured hosts; requests in absolute
 *   form (`GET http://other.host/ HTTP/1.1`) and requests naming another `Host` are refused.
 * - Passes the key header on unchanged and never logs a header; drops cookies both ways.
 * - Limits body size and request time; answers `GET /healthz`; `close()` lets requests in flight
 *   finish and answers 503 to new ones meanwhile.
 * - Never retries a forwarded call: the add-in's client decides (a start must not run twice).
 *
 * ## Example
 * ```ts
 * const app = await createAddinServer({ addinDir: "dist/addin", serviceBaseUrl, servicePollBaseUrl, tls });
 * await app.listen({ host: "0.0.0.0", port: 443 });
 * ```
 *
 * @param options What to serve, where to forward, the limits.
 * @return The fastify instance, ready to `listen`.
 */
export async function createAddinServer(options: AddinServerOptions): Promise<FastifyInstance> {
  const services = {
    base: serviceOrigin("serviceBaseUrl", options.serviceBaseUrl),
    poll: serviceOrigin("servicePollBaseUrl", options.servicePollBaseUrl),
  };
  const addinDir = path.resolve(options.addinDir);
  // Fail at start, not at the first user: the folder must hold a built add-in.
  if (!existsSync(path.join(addinDir, "taskpane.html"))) {
    throw new Error(
      `${addinDir} holds no built add-in (taskpane.html): build it first (SPELLRUN_ADDIN_URL=https://… npm run build).`
    );
  }
  const requestTimeoutMs = options.requestTimeoutMs ?? 150_000;

  const app = Fastify({
    ...(options.tls ? { https: { key: options.tls.key, cert: options.tls.cert } } : {}),
    logger: options.logger ?? true,
    bodyLimit: options.bodyLimitBytes ?? 10 * MIB,
    // Receiving a request (a slow client); the service's answer is limited below (undici).
    requestTimeout: Math.min(requestTimeoutMs, RECEIVE_TIMEOUT_MS),
    return503OnClosing: true,
    forceCloseConnections: "idle",
  });

  app.addHook("onRequest", async (request, reply) => {
    // A proxy-style request names its target host in the request line: never followed.
    if (!request.raw.url?.startsWith("/")) {
      return reply.code(400).send({ error: "Bad Request", message: "Only paths of this server." });
    }
    if (
      options.publicHost &&
      request.url !== "/healthz" &&
      request.headers.host?.toLowerCase() !== options.publicHost.toLowerCase()
    ) {
      return reply.code(421).send({
        error: "Misdirected Request",
        message: "This server answers for its own host only.",
      });
    }
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      // Exactly the page's policy (the list its meta tag has too) and frame-ancestors; helmet's
      // defaults would add directives of their own.
      useDefaults: false,
      directives: contentSecurityPolicy(
        [
          services.base.origin,
          services.poll.origin,
          ...(options.connectSources ?? []).map(
            (source) => serviceOrigin("connectSources", source).origin
          ),
        ],
        options.frameAncestors ?? OFFICE_FRAME_ANCESTORS
      ),
    },
    // frame-ancestors above says who may frame the pane; X-Frame-Options cannot name Office.
    frameguard: false,
    // Excel on the web shows the add-in's icons from an Office page (another origin).
    crossOriginResourcePolicy: { policy: "cross-origin" },
    // The task pane and Office talk across windows; no opener isolation.
    crossOriginOpenerPolicy: false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "no-referrer" },
  });

  // Bodies are forwarded byte for byte (ids above 2^53 stay exact); the size limit still applies.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  // Organisation mode: sign-in, the organisation's key, budgets and the ledger around the calls below.
  if (options.organisation) {
    await installOrganisationMode(app, options.organisation, [
      `${SERVICE_PREFIX}/`,
      `${POLL_PREFIX}/`,
    ]);
  }

  await app.register(fastifyReplyFrom, {
    undici: { headersTimeout: requestTimeoutMs, bodyTimeout: requestTimeoutMs },
    // One line per forwarded call would name only the path; fastify's request log has it.
    disableRequestLogging: true,
  });

  const forward = (request: FastifyRequest, reply: FastifyReply, target: string) =>
    reply.from(target, {
      // The bytes as they came: reply-from would re-encode a JSON body (a Buffer, here).
      ...(Buffer.isBuffer(request.body)
        ? { body: request.body, contentType: request.headers["content-type"] ?? "application/json" }
        : {}),
      rewriteRequestHeaders: (_request, headers) => headersToService(headers),
      rewriteHeaders: (headers) => headersFromService(headers),
      // Never retried here: the add-in's client knows which calls may be repeated.
      retryDelay: () => null,
      onError: (errorReply, { error }) => {
        const answer = proxyErrorAnswer(error);
        errorReply.code(answer.statusCode).send(answer);
      },
    });
  for (const endpoint of BASE_HOST_ENDPOINTS) {
    app.post(`${SERVICE_PREFIX}/spells/${endpoint}`, (request, reply) =>
      forward(request, reply, `${services.base.url}/spells/${endpoint}`)
    );
  }
  app.get(`${POLL_PREFIX}/spells/${POLL_HOST_ENDPOINT}`, (request, reply) =>
    forward(request, reply, `${services.poll.url}/spells/${POLL_HOST_ENDPOINT}`)
  );

  // A static host's "not found" is a page, not an API's JSON: a user who entered the add-in's
  // address as the service's is told it is not the service (Test connection).
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type("text/plain; charset=utf-8").send("Not found on the spellrun add-in host.")
  );

  app.get("/healthz", async (_request, reply) =>
    reply.header("cache-control", "no-store").send({ status: "ok" })
  );

  await app.register(fastifyStatic, {
    root: addinDir,
    dotfiles: "deny",
    index: ["taskpane.html"],
    // File names carry no hash: browsers revalidate (ETag) so an update shows on the next start.
    cacheControl: false,
    setHeaders: (response: FastifyReply) => {
      response.header("cache-control", "no-cache");
      // Excel on the web reads functions.json and the icons from an Office page: plain files, no
      // credentials, so any origin may read them. Never on the forwarded service calls.
      response.header("access-control-allow-origin", "*");
    },
  });

  return app;
}
