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
   * The `Host` (name and port, as a browser sends it) users reach the server by, e.g.
   * `excel-spells.example.com`; requests naming another host are refused (421), except the health
   * check, which a load balancer may call by address. Unset: any host.
   * @default undefined
   */
  publicHost?: string;
  /**
   * Largest request body, in bytes (a bulkStart of many rows is the largest request).
   * @default 10 MiB
   */
  bodyLimitBytes?: number;
  /**
   * Time limit of one forwarded call, from sending it to the end of the service's answer, in ms
   * (receiving the browser's request has its own 30 s limit, or this one if shorter). Wait mode holds
   * a start open for as long as a spell runs (about 60 s by the service's guidance; the client
   * waits 120 s), so the default leaves room for that.
   * @default 150000
   */
  requestTimeoutMs?: number;
  /**
   * Origins allowed to frame the add-in (CSP `frame-ancestors`): Excel on the web shows the task
   * pane in an iframe of an Office page.
   * @default OFFICE_FRAME_ANCESTORS
   */
  frameAncestors?: readonly string[];
  /**
   * More origins the page may call (CSP `connect-src`), for users who choose "Directly" in
   * Settings with a service that allows CORS; the two forwarded hosts are always allowed.
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
