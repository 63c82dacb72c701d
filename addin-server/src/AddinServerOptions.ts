import type { FastifyServerOptions } from "fastify";
import type { OrganisationOptions } from "./organisation/OrganisationOptions";

/**
 * What the add-in server needs: the folder to serve, the two Spell hosts it forwards to, and its
 * limits. Every field that has a default documents it.
 *
 * ## Example
 * ```ts
 * const options: AddinServerOptions = {
 *   addinDir: "dist/addin",
 *   serviceBaseUrl: "https://api.spell.example",
 *   servicePollBaseUrl: "https://poll.spell.example",
 * };
 * ```
 */
export interface AddinServerOptions {
  /** The built add-in (`npm run build` writes `dist/addin`). */
  addinDir: string;
  /** Where `/spell-api/spells/*` goes: the host of start, bulkStart, cancelBulk, getBulkRuns. */
  serviceBaseUrl: string;
  /** Where `/spell-poll/spells/getRun` goes: the host of getRun. */
  servicePollBaseUrl: string;
  /**
   * TLS key and certificate (PEM). Without them the server speaks plain HTTP, which is only for a
   * TLS-terminating load balancer in front of it: Excel loads add-ins over https only.
   */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /**
   * The `Host` users reach the server by, `name` or `name:port`, e.g. `excel-spells.example.com`
   * or `excel-spells.example.com:8443`; requests naming another host are refused (421), except
   * the health check, which a load balancer may call by address. A name alone matches it on any
   * port; `name:port` that port only (`name:443` also matches a `Host` without a port).
   * Unset: any host.
   * @default undefined
   */
  publicHost?: string;
  /**
   * Largest request body, in bytes (a bulkStart of many rows is the largest request).
   * @default 10 MiB
   */
  bodyLimitBytes?: number;
  /**
   * Total time limit of one forwarded call, from sending it to the last byte of the service's
   * answer, in ms: a service that drips its answer is cut off at the limit (504) like one that
   * sends nothing. Wait mode holds a start open for as long as a spell runs (about 60 s by the
   * service's guidance; the client waits 120 s), so the default leaves room for that.
   * @default 150000
   */
  requestTimeoutMs?: number;
  /**
   * Total time limit for receiving a request (headers and body) from the browser, in ms; a client
   * still sending at the limit gets 408 and its connection closed. Never more than
   * `requestTimeoutMs`.
   * @default 30000
   */
  receiveTimeoutMs?: number;
  /**
   * Largest answer of the service passed on, in bytes (larger: a JSON 502).
   * @default 64 MiB (the add-in's client refuses larger answers too)
   */
  answerLimitBytes?: number;
  /**
   * Origins allowed to frame the add-in (CSP `frame-ancestors`, after `'self'`): Excel on the web
   * and Teams show the task pane in an iframe of an Office page. Replaces the default; to add
   * origins (a sovereign cloud's Office hosts), pass `[...OFFICE_FRAME_ANCESTORS, "https://…"]`.
   * @default OFFICE_FRAME_ANCESTORS
   */
  frameAncestors?: readonly string[];
  /**
   * Origins the page may call beside itself (CSP `connect-src`), for users who choose "Directly"
   * in Settings with a service that allows CORS. The forwarded hosts are not named in the policy
   * (the page reaches them through this server), so a visitor does not learn internal addresses;
   * "Directly" works only for the origins listed here.
   * @default []
   */
  connectSources?: readonly string[];
  /**
   * Fastify's logger: `true` (JSON lines on stdout), `false`, or options (a `stream` in specs).
   * Headers are never logged, so neither the API key nor cookies are.
   * @default true
   */
  logger?: boolean | Exclude<FastifyServerOptions["logger"], undefined>;
  /**
   * The organisation mode: users sign in, the server holds the Spell key, budgets and the usage
   * ledger (see docs/deploy.md). Unset: pass-through, each user's key goes through unchanged.
   * @default undefined
   */
  organisation?: OrganisationOptions;
}
