import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { createAddinServer } from "../../../addin-server/src/createAddinServer.js";
import type { LocalIssuer } from "../../../addin-server/src/localIssuer/createLocalIssuer.js";
import { migrate } from "../../../addin-server/src/organisation/ledger/migrations.js";
import { openDatabase } from "../../../addin-server/src/organisation/ledger/openDatabase.js";
import type { SqlDatabase } from "../../../addin-server/src/organisation/ledger/SqlDatabase.js";
import type { Budgets } from "../../../addin-server/src/organisation/budgets/Budgets.js";
import { httpsRequest } from "./httpsRequest.js";

/** The organisation's Spell key in these specs: it must never reach a browser, a log or the ledger. */
export const ORGANISATION_KEY = "sk-organisation-secret-7f3a9c";
/** The admin group of these specs. */
export const ADMIN_GROUP = "spellrun-admins";

let pglite: Promise<SqlDatabase> | undefined;

/**
 * One in-memory PGlite for every organisation spec of the run (making one takes seconds), its
 * schema migrated; `emptyLedger` between specs.
 */
export function sharedPglite(): Promise<SqlDatabase> {
  pglite ??= openDatabase("memory://").then(async (database) => {
    await migrate(database);
    return database;
  });
  return pglite;
}

/** Empties the ledger, the counters and the switches. */
export async function emptyLedger(database: SqlDatabase): Promise<void> {
  await database.query("TRUNCATE usage_ledger, budget_counters, gateway_switches");
}

/** A running gateway in organisation mode, plain HTTP on loopback, with its files and logs. */
export interface OrganisationGateway {
  url: string;
  app: FastifyInstance;
  keyFile: string;
  budgetsFile: string;
  logs: () => string;
  /** Writes the budgets file and makes the server read it now. */
  setBudgets(budgets: Budgets): void;
  close(): Promise<void>;
}

/**
 * Starts the add-in server in organisation mode in front of `upstream`, signing in with
 * `issuer`, the ledger in `database`.
 */
export async function startOrganisationGateway(options: {
  issuer: LocalIssuer;
  upstreamUrl: string;
  database: SqlDatabase | string;
  budgets?: Budgets;
  groups?: Record<string, string[]>;
  devSignIn?: boolean;
  /** HTTPS (for a browser: the page's CSP upgrades plain http requests). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** The built add-in to serve (default: a folder with an empty taskpane.html). */
  addinDir?: string;
  /** The service's poll host, when not `upstreamUrl` (the base host is `upstreamUrl/v1` otherwise). */
  upstreamPollUrl?: string;
  /** The bearer token `/metrics` asks for (default: none, `/metrics` answers loopback only). */
  metricsToken?: string;
  /** Where the gateway listens (default 127.0.0.1; `url` stays a loopback address). */
  host?: string;
}): Promise<OrganisationGateway> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "spellrun-org-"));
  writeFileSync(path.join(folder, "taskpane.html"), "<!doctype html><title>Spell Run</title>");
  const keyFile = path.join(folder, "spell-key");
  writeFileSync(keyFile, `${ORGANISATION_KEY}\n`);
  const budgetsFile = path.join(folder, "budgets.json");
  writeFileSync(budgetsFile, JSON.stringify(options.budgets ?? {}));
  const groupsFile = path.join(folder, "groups.json");
  writeFileSync(groupsFile, JSON.stringify(options.groups ?? {}));
  let logs = "";
  const app = await createAddinServer({
    addinDir: options.addinDir ?? folder,
    serviceBaseUrl: options.upstreamPollUrl ? options.upstreamUrl : `${options.upstreamUrl}/v1`,
    servicePollBaseUrl: options.upstreamPollUrl ?? options.upstreamUrl,
    ...(options.tls ? { tls: options.tls } : {}),
    logger: {
      level: "info",
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logs += chunk.toString();
          done();
        },
      }),
    },
    organisation: {
      signIn: {
        tenantId: options.issuer.tenantId,
        issuer: options.issuer.issuer,
        jwksUrl: options.issuer.jwksUrl,
        audience: options.issuer.audience,
      },
      clientId: options.issuer.audience,
      authority: options.issuer.url,
      spellKey: { file: keyFile },
      adminGroup: ADMIN_GROUP,
      database: options.database,
      budgetsFile,
      groupsFile,
      ...(options.devSignIn ? { devTokenUrl: options.issuer.tokenUrl } : {}),
      ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    },
  });
  await app.listen({ host: options.host ?? "127.0.0.1", port: 0 });
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    app,
    keyFile,
    budgetsFile,
    logs: () => logs,
    setBudgets(budgets) {
      writeFileSync(budgetsFile, JSON.stringify(budgets));
      app.organisation!.reload();
    },
    close: () => app.close(),
  };
}

/** A start through the gateway, as the add-in sends it. */
export async function startThrough(
  gateway: { url: string },
  token: string | undefined,
  body: unknown = { spellId: "summarize", wait: false, inputs: { text: "hello" } },
  extraHeaders: Record<string, string> = {}
): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const request = {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...extraHeaders,
    },
    body: JSON.stringify(body),
  };
  const url = `${gateway.url}/spell-api/spells/start`;
  // HTTPS with the spec's own certificate: node:https, which can skip verifying it.
  const { status, text } = url.startsWith("https:")
    ? await httpsRequest(url, request).then((answer) => ({
        status: answer.status,
        text: answer.body,
      }))
    : await fetch(url, request).then(async (answer) => ({
        status: answer.status,
        text: await answer.text(),
      }));
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: the spec reads `text`.
  }
  return { status, body: parsed, text };
}
