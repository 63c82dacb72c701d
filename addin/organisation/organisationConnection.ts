import type { SpellClientOptions } from "spellrun";
import type { OrganisationConfig } from "./organisationConfig.js";
import { ORGANISATION_KEY_PLACEHOLDER, organisationFetch } from "./organisationFetch.js";

/**
 * The shared client's connection in organisation mode: no key of the user's (the server adds
 * the organisation's), the user's token on every request, and an `Idempotency-Key` on each start
 * so a retried call is charged once.
 *
 * ## Example
 * ```ts
 * new SpellClient({ ...organisationConnection(config), baseUrl, pollBaseUrl });
 * ```
 *
 * @param config The server's organisation mode.
 * @return The connection options.
 */
export function organisationConnection(
  config: OrganisationConfig
): Pick<SpellClientOptions, "apiKey" | "authHeader" | "fetch" | "idempotencyKeys"> {
  return {
    apiKey: ORGANISATION_KEY_PLACEHOLDER,
    authHeader: "authorization",
    fetch: organisationFetch(config),
    idempotencyKeys: true,
  };
}
