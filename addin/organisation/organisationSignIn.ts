import { runtimeSingleton } from "../runtimeSingleton.js";
import type { OrganisationConfig } from "./organisationConfig.js";

/** A token is renewed this long before it expires. */
const RENEW_BEFORE_MS = 5 * 60_000;

interface SignInState {
  token?: string;
  expiresAt?: number;
  user?: string;
  listeners: Set<(user: string | undefined) => void>;
}

/**
 * Raised when a call needs a sign-in that cannot happen without the user (no token yet in
 * development, or Office refused silent sign-in): the cell and the pane say "Sign in again".
 *
 * ## Example
 * ```ts
 * if (error instanceof SignInRequiredError) showSignInButton();
 * ```
 */
export class SignInRequiredError extends Error {
  override readonly name = "SignInRequiredError" as const;
  constructor(message = "Sign in again: open Spell Run > Settings and sign in.") {
    super(message);
  }
}

/**
 * The user's access token for the add-in server, renewed before it expires. In production it
 * comes from Office's single sign-on (`OfficeRuntime.auth.getAccessToken`, the app registration
 * of the manifest's `WebApplicationInfo`; see docs/deploy.md for nested app authentication with
 * MSAL instead); in development from the local issuer through `/org/dev-token`.
 *
 * ## Example
 * ```ts
 * headers.Authorization = `Bearer ${await organisationToken(config)}`;
 * ```
 *
 * @param config The server's organisation mode.
 * @return The token.
 * @throws SignInRequiredError when nobody is signed in and it cannot be done silently.
 */
export async function organisationToken(config: OrganisationConfig): Promise<string> {
  const state = signInState();
  if (state.token && (state.expiresAt ?? 0) - RENEW_BEFORE_MS > Date.now()) return state.token;
  if (config.devSignIn) {
    if (!state.user) throw new SignInRequiredError();
    return signInForDevelopment(state.user);
  }
  if (typeof OfficeRuntime === "undefined" || !OfficeRuntime.auth?.getAccessToken) {
    throw new SignInRequiredError(
      "This Office version cannot sign in (single sign-on is missing)."
    );
  }
  try {
    return remember(
      await OfficeRuntime.auth.getAccessToken({ allowSignInPrompt: true, allowConsentPrompt: true })
    );
  } catch (error) {
    throw new SignInRequiredError(
      `Sign in again (${error instanceof Error ? error.message : String(error)}).`
    );
  }
}

/**
 * Signs in as `user` with the development issuer (the server's `/org/dev-token`; no password:
 * development only).
 *
 * @param user The user's sign-in name.
 * @return The token.
 */
export async function signInForDevelopment(user: string): Promise<string> {
  const answer = await fetch(`${globalThis.location.origin}/org/dev-token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user }),
  });
  const body = (await answer.json().catch(() => ({}))) as {
    access_token?: string;
    message?: string;
  };
  if (!answer.ok || !body.access_token)
    throw new SignInRequiredError(body.message ?? "Sign-in failed.");
  return remember(body.access_token);
}

/**
 * Forgets the token (after the server answered 401), so the next call gets a new one.
 */
export function forgetOrganisationToken(): void {
  const state = signInState();
  state.token = undefined;
  state.expiresAt = undefined;
}

/**
 * Who is signed in (the token's name; for display only, the server checks the token), or
 * undefined; and a way to hear of changes.
 *
 * @param listener Told the new user after each sign-in.
 * @return A function that stops listening.
 */
export function onSignedInUser(listener: (user: string | undefined) => void): () => void {
  const state = signInState();
  state.listeners.add(listener);
  listener(state.user);
  return () => state.listeners.delete(listener);
}

function remember(token: string): string {
  const state = signInState();
  const claims = tokenClaims(token);
  state.token = token;
  state.expiresAt = typeof claims.exp === "number" ? claims.exp * 1000 : Date.now() + 10 * 60_000;
  const user = [claims.preferred_username, claims.upn, claims.name].find(
    (value): value is string => typeof value === "string"
  );
  state.user = user ?? state.user;
  for (const listener of state.listeners) listener(state.user);
  return token;
}

/** The token's claims, read without checking (the server checks; this only shows a name). */
function tokenClaims(token: string): Record<string, unknown> {
  try {
    const payload = token.split(".")[1] ?? "";
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "="))) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
}

function signInState(): SignInState {
  return runtimeSingleton<SignInState>("organisationSignIn", () => ({ listeners: new Set() }));
}
