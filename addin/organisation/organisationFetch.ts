import type { OrganisationConfig } from "./organisationConfig.js";
import {
  SignInRequiredError,
  forgetOrganisationToken,
  organisationToken,
} from "./organisationSignIn.js";

/**
 * The key the shared client is built with in organisation mode: a name, not a secret (the
 * server holds the key), replaced in every request by the user's token. Chosen so that no
 * answer's text contains it (the client hides its key wherever an answer repeats it).
 */
export const ORGANISATION_KEY_PLACEHOLDER = "spellrun-organisation-holds-the-key";

/**
 * A fetch for the shared client in organisation mode: each request carries the signed-in user's
 * token as `Authorization: Bearer …` in place of a key; a 401 drops the token so the next call
 * gets a new one (the answer itself reaches the client, whose error shows the server's "sign in
 * again"). Any other answer keeps the token: a 502 `organisation_key_refused` is about the
 * organisation's key, not the user's sign-in. With nobody signed in it answers that 401 itself,
 * sending nothing.
 *
 * ## Example
 * ```ts
 * new SpellClient({ apiKey: ORGANISATION_KEY_PLACEHOLDER, fetch: organisationFetch(config), idempotencyKeys: true, … });
 * ```
 *
 * @param config The server's organisation mode.
 * @param fetchFn The fetch underneath.
 * @return The fetch.
 */
export function organisationFetch(
  config: OrganisationConfig,
  fetchFn: typeof fetch = (...args) => fetch(...args)
): typeof fetch {
  return async (input, init = {}) => {
    let token: string;
    try {
      token = await organisationToken(config);
    } catch (error) {
      if (!(error instanceof SignInRequiredError)) throw error;
      // Answered here as the server would: the cell and the pane show "sign in again".
      return new Response(
        JSON.stringify({ error: "Unauthorized", code: "sign_in_required", message: error.message }),
        { status: 401, headers: { "content-type": "application/json" } }
      );
    }
    const headers = new Headers(init.headers);
    headers.set("Authorization", `Bearer ${token}`);
    const answer = await fetchFn(input, { ...init, headers });
    if (answer.status === 401) forgetOrganisationToken();
    return answer;
  };
}
