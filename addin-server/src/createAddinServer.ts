import { existsSync } from "node:fs";
import path from "node:path";
import fastifyHelmet from "@fastify/helmet";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { Agent } from "undici";
import {
  FORWARDING_PREFIXES,
  SERVICE_ENDPOINTS,
  endpointPath,
} from "../../src/http/serviceEndpoints";
import type { AddinServerOptions } from "./AddinServerOptions";
import { OFFICE_FRAME_ANCESTORS, contentSecurityPolicy } from "./contentSecurityPolicy";
import { forwardCall } from "./forwardCall";
import { headersFromService, headersToService } from "./forwardedHeaders";
import { organisationKeyRefusedAnswer } from "./organisation/key/organisationKeyRefusedAnswer";
import { installOrganisationMode } from "./organisation/organisationMode";
import { notJsonAnswer, proxyErrorAnswer } from "./proxyErrorAnswer";
import { publicHostMatcher } from "./publicHost";
import { serviceOrigin } from "./serviceOrigin";

const MIB = 1024 * 1024;
/** Longest time a client may take to send its whole request (headers and body). */
const RECEIVE_TIMEOUT_MS = 30_000;
/**
 * The security headers of every forwarded answer, set after the service's answer is in (an onSend
 * hook), so nothing of the service's can replace them: a JSON answer that no browser renders as a
 * page, runs a script of, or frames, and no cache keeps.
 */
const FORWARDED_ANSWER_HEADERS = Object.freeze({
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'; sandbox",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
});
/** Built files whose name carries a content hash (webpack `[contenthash]`): never change. */
const HASHED_FILE = /\.[0-9a-f]{16,}\.(?:js|mjs|css)(?:\.br|\.gz)?$/;

/**
 * Builds the production add-in server (not listening yet): the built add-in as static files over
 * HTTPS with security headers and a Content-Security-Policy, and `/spell-api/spells/*`,
 * `/spell-poll/spells/getRun` forwarded to the two configured Spell hosts, so that for the
 * browser every call is same-origin and the service needs no CORS. Stateless: run as many as
 * needed behind a load balancer.
 *
 * - Forwards only the service's endpoints (`SERVICE_ENDPOINTS`), each to its own host; requests
 *   in absolute form (`GET http://other.host/ HTTP/1.1`) and requests naming another `Host` are
 *   refused; a forwarded path opened as a page is refused.
 * - Pass-through of the key: the key header goes on unchanged; a call without one is refused
 *   (401) and never relayed. Headers are never logged.
 * - To the service: no cookies, hop-by-hop or client forwarding/proxy headers
 *   (`headersToService`). To the browser: only JSON (anything else is a JSON 502), only
 *   `content-type` and `retry-after` of the service's headers (`headersFromService`), and this
 *   server's own security headers set after forwarding.
 * - Total time limits: receiving a request (30 s), a forwarded call (`requestTimeoutMs`);
 *   `Expect: 100-continue` is answered here. Body and answer size limits. `GET /healthz`;
 *   `close()` lets requests in flight finish and answers 503 to new ones meanwhile.
 * - Static files: hashed scripts cached for a year, everything else revalidated; pre-compressed
 *   `.br`/`.gz` files (written by the build) sent to browsers that accept them.
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
  const isPublicHost = options.publicHost ? publicHostMatcher(options.publicHost) : undefined;
  const requestTimeoutMs = options.requestTimeoutMs ?? 150_000;
  const receiveTimeoutMs = Math.min(
    options.receiveTimeoutMs ?? RECEIVE_TIMEOUT_MS,
    requestTimeoutMs
  );
  // Node checks the receive limit of open connections on this interval (30 s by default, which
  // let a slow body run to about twice the limit): checked often enough to cut it on time.
  const receiveLimits = {
    requestTimeout: receiveTimeoutMs,
    headersTimeout: receiveTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(receiveTimeoutMs / 4))),
  };

  const app = Fastify({
    ...(options.tls
      ? { https: { key: options.tls.key, cert: options.tls.cert, ...receiveLimits } }
      : { http: receiveLimits }),
    logger: options.logger ?? true,
    bodyLimit: options.bodyLimitBytes ?? 10 * MIB,
    requestTimeout: receiveTimeoutMs,
    return503OnClosing: true,
    forceCloseConnections: "idle",
  });

  app.addHook("onRequest", async (request, reply) => {
    // A proxy-style request names its target host in the request line: never followed.
    if (!request.raw.url?.startsWith("/")) {
      return reply.code(400).send({ error: "Bad Request", message: "Only paths of this server." });
    }
    if (isPublicHost && request.url !== "/healthz" && !isPublicHost(request.headers.host)) {
      return reply.code(421).send({
        error: "Misdirected Request",
        message: "This server answers for its own host only.",
      });
    }
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      // Exactly the page's policy (the list its meta tag has too) and frame-ancestors; helmet's
      // defaults would add directives of their own. The page reaches the service through this
      // server ('self'), so the service's own (internal) addresses are not named to visitors;
      // only the origins given for "Directly" in Settings are.
      useDefaults: false,
      directives: contentSecurityPolicy(
        (options.connectSources ?? []).map(
          (source) => serviceOrigin("connectSources", source).origin
        ),
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

  // Organisation mode: sign-in (a preHandler, before `forward` below), the organisation's key
  // (added by `forward` to the headers for the service), budgets and the ledger; its onSend
  // (key masking, the run id) is registered before the forwarded answers' security headers below.
  if (options.organisation) await installOrganisationMode(app, options.organisation);

  const dispatcher = new Agent({
    connect: { timeout: Math.min(requestTimeoutMs, 10_000) },
    // The total limit of forwardCall governs; these only keep undici from cutting earlier.
    headersTimeout: requestTimeoutMs + 1_000,
    bodyTimeout: requestTimeoutMs + 1_000,
  });
  app.addHook("onClose", async () => dispatcher.close());
  const answerLimitBytes = options.answerLimitBytes ?? 64 * MIB;

  const forward = async (
    request: FastifyRequest,
    reply: FastifyReply,
    target: string,
    method: "GET" | "POST"
  ) => {
    // A forwarded path opened as a page (typed into the address bar, a link): never an answer a
    // browser would show; the add-in calls with fetch.
    if (request.headers["sec-fetch-mode"] === "navigate") {
      return reply.code(400).send({
        error: "Bad Request",
        code: "not_a_page",
        message: "This address is the Spell service's, for the add-in's calls; it is not a page.",
      });
    }
    // Organisation mode: the user signed in (the preHandler refused everyone else) and the
    // organisation's key replaces whatever key header the browser sent.
    const organisationCall = request.organisationCall;
    // Pass-through mode: the key comes with the call. A call without one is not the add-in's.
    if (!organisationCall && !request.headers["x-api-key"] && !request.headers.authorization) {
      return reply.code(401).send({
        error: "Unauthorized",
        code: "missing_credentials",
        message: "The call carries no API key (x-api-key or Authorization): not forwarded.",
      });
    }
    // Only getRun takes a query (its runId); the POST endpoints take their arguments in the body.
    const rawUrl = request.raw.url ?? "";
    const query = method === "GET" && rawUrl.includes("?") ? rawUrl.slice(rawUrl.indexOf("?")) : "";
    let answer;
    try {
      answer = await forwardCall({
        url: `${target}${query}`,
        method,
        headers: headersToService(request.headers, organisationCall?.serviceKey),
        ...(Buffer.isBuffer(request.body) ? { body: request.body } : {}),
        timeoutMs: requestTimeoutMs,
        answerLimitBytes,
        dispatcher,
      });
    } catch (error) {
      const failure = proxyErrorAnswer(error);
      request.log.warn({ code: failure.code }, "forwarded call failed");
      return reply.code(failure.statusCode).send(failure);
    }
    // Organisation mode: the service refused the organisation's key, not the user's sign-in.
    const keyRefused = organisationCall && organisationKeyRefusedAnswer(answer.statusCode);
    if (organisationCall && keyRefused) {
      organisationCall.keyRefusedStatus = answer.statusCode;
      return reply.code(keyRefused.statusCode).send(keyRefused);
    }
    const headers = headersFromService(answer.headers);
    if (answer.body.length > 0 && !headers["content-type"]) {
      const failure = notJsonAnswer(answer.statusCode, answer.headers["content-type"]);
      request.log.warn(
        { code: failure.code, upstreamStatus: answer.statusCode },
        "forwarded call failed"
      );
      return reply.code(failure.statusCode).send(failure);
    }
    reply.code(answer.statusCode).headers(headers);
    return answer.body.length > 0 ? reply.send(answer.body) : reply.send();
  };

  const forwardedPaths = new Set<string>();
  for (const [endpoint, { method, host }] of Object.entries(SERVICE_ENDPOINTS)) {
    const spellsPath = endpointPath(endpoint as keyof typeof SERVICE_ENDPOINTS);
    const routePath = `${FORWARDING_PREFIXES[host]}${spellsPath}`;
    const target = `${services[host].url}${spellsPath}`;
    forwardedPaths.add(routePath);
    app.route({
      method,
      url: routePath,
      // No HEAD twin of getRun: each endpoint is forwarded with its own method only.
      exposeHeadRoute: false,
      handler: (request, reply) => forward(request, reply, target, method),
    });
  }
  // After the handler: the forwarded answers' own security headers, whatever the service sent.
  app.addHook("onSend", async (request, reply, payload) => {
    if (forwardedPaths.has(request.routeOptions.url ?? "")) reply.headers(FORWARDED_ANSWER_HEADERS);
    return payload;
  });

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
    // The build writes .br and .gz beside each text file: sent to browsers that accept them.
    preCompressed: true,
    cacheControl: false,
    setHeaders: (response: FastifyReply, filePath: string) => {
      // Scripts carry a content hash in their name (a release never changes a file, it adds
      // one): kept for a year. Pages, the manifest, functions.json and icons keep their names:
      // revalidated (ETag) each time, so a release shows on the next start and an open pane
      // never mixes an old page with new scripts.
      response.header(
        "cache-control",
        HASHED_FILE.test(filePath) ? "public, max-age=31536000, immutable" : "no-cache"
      );
      // Excel on the web reads functions.json and the icons from an Office page: plain files, no
      // credentials, so any origin may read them. Never on the forwarded service calls.
      response.header("access-control-allow-origin", "*");
    },
  });

  return app;
}
