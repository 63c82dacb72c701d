import { runtimeSingleton } from "../runtimeSingleton.js";

/**
 * What the add-in server says about its organisation mode (`GET /org/config`): the tenant and
 * the app registration to sign in with, and whether the development issuer stands in for Entra.
 *
 * ## Example
 * ```ts
 * const config: OrganisationConfig = { mode: "organisation", tenantId, clientId, devSignIn: false };
 * ```
 */
export interface OrganisationConfig {
  mode: "organisation";
  tenantId: string;
  clientId: string;
  scopes?: string[];
  devSignIn: boolean;
}

/**
 * The organisation mode of the server the add-in was loaded from, or `undefined` when it is a
 * plain host (pass-through, the dev server without it, a static host): then each user's own key
 * is used, as before. Asked once per runtime.
 *
 * ## Example
 * ```ts
 * if (await organisationConfig()) showSignIn();
 * ```
 *
 * @param fetchFn The fetch to ask with (specs).
 * @param origin The add-in's origin.
 * @return The configuration, or undefined.
 */
export function organisationConfig(
  fetchFn: typeof fetch = (...args) => fetch(...args),
  origin: string | undefined = globalThis.location?.origin
): Promise<OrganisationConfig | undefined> {
  // Asked once per runtime (per origin: specs ask for several).
  const asked = runtimeSingleton(
    "organisationConfig",
    () => new Map<string, Promise<OrganisationConfig | undefined>>()
  );
  if (!origin || origin === "null") return Promise.resolve(undefined);
  let config = asked.get(origin);
  if (!config) {
    config = (async () => {
      try {
        const answer = await fetchFn(`${origin}/org/config`, {
          headers: { accept: "application/json" },
        });
        if (!answer.ok) return undefined;
        const body = (await answer.json()) as Partial<OrganisationConfig>;
        return body.mode === "organisation" && typeof body.clientId === "string"
          ? (body as OrganisationConfig)
          : undefined;
      } catch {
        return undefined;
      }
    })();
    asked.set(origin, config);
  }
  return config;
}
