import type { SignInOptions } from "./signIn/verifyUserToken";
import type { SqlDatabase } from "./ledger/SqlDatabase";
import type { SpellKeySource } from "./key/spellKeySource";

/**
 * The organisation mode of the add-in server: users sign in (Entra ID, or the local issuer in
 * development), the server holds the Spell key and adds it to forwarded calls, budgets are
 * charged before a start is forwarded and every start is on the usage ledger.
 *
 * ## Example
 * ```ts
 * const organisation: OrganisationOptions = {
 *   signIn: { tenantId, issuer, jwksUrl, audience: clientId },
 *   clientId,
 *   spellKey: { file: "/run/secrets/spell-key" },
 *   adminGroup: "5c1c…",
 *   database: "postgres://spellrun@db.internal/spellrun",
 *   budgetsFile: "/etc/spellrun/budgets.json",
 * };
 * ```
 */
export interface OrganisationOptions {
  /** The tenant and the audience tokens must have. */
  signIn: SignInOptions;
  /** The add-in's app registration (client) id, told to the add-in by `/org/config` for sign-in. */
  clientId: string;
  /**
   * Where the admin page signs in (authorization code flow with PKCE):
   * `<authority>/<tenant>/oauth2/v2.0/authorize` and `…/token`.
   * @default "https://login.microsoftonline.com"
   */
  authority?: string;
  /**
   * The scopes the add-in asks for (told by `/org/config`).
   * @default [`api://<public host>/<clientId>/access_as_user`] as the add-in builds it
   */
  scopes?: readonly string[];
  /** The organisation's Spell key: a file (rotated without restart) or an environment variable. */
  spellKey: SpellKeySource;
  /**
   * The header the key goes in, as the service accepts it.
   * @default "authorization"
   */
  keyHeader?: "authorization" | "x-api-key";
  /** The group (id from the token, or name from the groups file) whose members may open /admin. */
  adminGroup: string;
  /**
   * The ledger: a folder for the embedded PGlite, or a `postgres://` URL shared by every
   * instance; or a database already open (`openDatabase`), which the server then leaves open.
   */
  database: string | SqlDatabase;
  /** The budgets (JSON, see `Budgets`), re-read when changed. Unset: no limits. */
  budgetsFile?: string;
  /** Groups by user, `{ "alice@contoso.com": ["finance"] }` (JSON), re-read when changed. */
  groupsFile?: string;
  /**
   * Days of ledger rows kept; older ones are deleted at start and daily.
   * @default 400
   */
  retentionDays?: number;
  /**
   * Development only: the local issuer's token endpoint. The add-in and the admin page then sign
   * in through this server's `/org/dev-token` (a name, no password). Never set in production.
   */
  devTokenUrl?: string;
  /**
   * The bearer token `/metrics` asks for (`SPELLRUN_METRICS_TOKEN`). Unset: `/metrics` answers
   * only requests from this machine (a loopback address).
   */
  metricsToken?: string;
}
