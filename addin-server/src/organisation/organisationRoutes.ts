import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { adminPageHtml } from "./admin/adminPageHtml";
import { adminPageScript } from "./admin/adminPageScript";
import type { Budgets } from "./budgets/Budgets";
import type { gatewayMetrics } from "./gatewayMetrics";
import { budgetPeriods } from "./budgets/budgetPeriods";
import { ledgerCsv } from "./ledger/ledgerCsv";
import type { UsageLedger } from "./ledger/UsageLedger";
import { usageReport } from "./ledger/usageReport";
import { metricsRefusal } from "./metricsAccess";
import type { OrganisationOptions } from "./OrganisationOptions";
import type { SignedInUser } from "./signIn/SignedInUser";

/** What the routes share with the organisation mode's hooks. */
export interface OrganisationRouteDeps {
  options: OrganisationOptions;
  ledger: UsageLedger;
  metrics: ReturnType<typeof gatewayMetrics>;
  /** The signed-in user, or undefined after answering 401. */
  signedIn: (request: FastifyRequest, reply: FastifyReply) => Promise<SignedInUser | undefined>;
  currentBudgets: () => Budgets;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The organisation mode's own routes: `GET /org/config` (what the add-in needs to sign in),
 * `POST /org/dev-token` (development only: a local issuer's token for a name), `GET /metrics`
 * (with the metrics token, or from this machine only: see `metricsRefusal`),
 * and the admin view (signing in by the authorization code flow with PKCE, redirect URI
 * `<origin>/admin`): `GET /admin` (the page), `GET /admin/api/usage`, `GET /admin/api/usage.csv`,
 * `POST /admin/api/pause`, each API call for members of the admin group only.
 *
 * ## Example
 * ```ts
 * organisationRoutes(app, { options, ledger, metrics, signedIn, currentBudgets });
 * ```
 *
 * @param app The add-in server.
 * @param deps The organisation mode's parts.
 */
export function organisationRoutes(app: FastifyInstance, deps: OrganisationRouteDeps): void {
  const { options, ledger, metrics } = deps;
  const noStore = (reply: FastifyReply) => reply.header("cache-control", "no-store");
  const tenantAuthority = `${(options.authority ?? "https://login.microsoftonline.com").replace(/\/+$/, "")}/${encodeURIComponent(options.signIn.tenantId)}`;
  const tokenUrl = `${tenantAuthority}/oauth2/v2.0/token`;

  app.get("/org/config", async (_request, reply) =>
    noStore(reply).send({
      mode: "organisation",
      tenantId: options.signIn.tenantId,
      clientId: options.clientId,
      ...(options.scopes ? { scopes: options.scopes } : {}),
      authorizeUrl: `${tenantAuthority}/oauth2/v2.0/authorize`,
      tokenUrl,
      devSignIn: Boolean(options.devTokenUrl),
    })
  );

  if (options.devTokenUrl) {
    const devTokenUrl = options.devTokenUrl;
    app.post("/org/dev-token", async (request, reply) => {
      const answer = await fetch(devTokenUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.isBuffer(request.body) ? request.body.toString("utf8") : "{}",
      });
      return noStore(reply)
        .code(answer.status)
        .type("application/json")
        .send(Buffer.from(await answer.arrayBuffer()));
    });
  }

  app.get("/metrics", async (request, reply) => {
    const refusal = metricsRefusal(
      request.headers.authorization,
      request.raw.socket.remoteAddress,
      options.metricsToken
    );
    if (refusal) {
      if (refusal.status === 401) reply.header("www-authenticate", 'Bearer realm="metrics"');
      return noStore(reply).code(refusal.status).send({ error: refusal.message });
    }
    return noStore(reply)
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics());
  });

  // The page redeems its sign-in code at the token endpoint: its own CSP allows that origin.
  const adminPolicy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `connect-src 'self' ${new URL(tokenUrl).origin}`,
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  app.get("/admin", async (_request, reply) =>
    noStore(reply)
      .header("content-security-policy", adminPolicy)
      .type("text/html; charset=utf-8")
      .send(adminPageHtml)
  );
  app.get("/admin/adminPage.js", async (_request, reply) =>
    noStore(reply).type("text/javascript; charset=utf-8").send(adminPageScript())
  );

  /** The signed-in admin, or undefined after answering 401 or 403. */
  const admin = async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await deps.signedIn(request, reply);
    if (!user) return undefined;
    if (!user.groups.includes(options.adminGroup)) {
      await reply.code(403).send({
        error: "Forbidden",
        code: "not_admin",
        message: `${user.name} is not in the admin group.`,
      });
      return undefined;
    }
    return user;
  };

  const range = (request: FastifyRequest) => {
    const query = request.query as { from?: unknown; to?: unknown };
    const periods = budgetPeriods(new Date());
    const from =
      typeof query.from === "string" && DAY.test(query.from) ? query.from : `${periods.month}-01`;
    const to = typeof query.to === "string" && DAY.test(query.to) ? query.to : periods.day;
    return { from, to };
  };

  app.get("/admin/api/usage", async (request, reply) => {
    if (!(await admin(request, reply))) return reply;
    return noStore(reply).send(
      await usageReport(ledger.database, deps.currentBudgets(), range(request))
    );
  });

  app.get("/admin/api/usage.csv", async (request, reply) => {
    if (!(await admin(request, reply))) return reply;
    const { from, to } = range(request);
    return noStore(reply)
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="spellrun-usage-${from}-${to}.csv"`)
      .send(await ledgerCsv(ledger.database, from, to));
  });

  app.post("/admin/api/pause", async (request, reply) => {
    const user = await admin(request, reply);
    if (!user) return reply;
    let paused: unknown;
    try {
      paused = (JSON.parse(String(request.body ?? "")) as { paused?: unknown }).paused;
    } catch {
      paused = undefined;
    }
    if (typeof paused !== "boolean") {
      return reply
        .code(400)
        .send({ error: "Bad Request", message: 'Send {"paused": true} or {"paused": false}.' });
    }
    await ledger.setPaused(paused, user.name);
    request.log.warn({ user: user.name, paused }, "kill switch changed");
    return noStore(reply).send({ paused });
  });
}
