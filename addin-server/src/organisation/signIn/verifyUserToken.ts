import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import type { SignedInUser } from "./SignedInUser";

/**
 * Who may sign in: the tenant's token issuer, its keys, the add-in's API (the audience).
 *
 * ## Example
 * ```ts
 * const signIn: SignInOptions = {
 *   tenantId,
 *   issuer: `https://login.microsoftonline.com/${tenantId}/v2.0`,
 *   jwksUrl: `https://login.microsoftonline.com/${tenantId}/discovery/v2.0/keys`,
 *   audience: clientId,
 * };
 * ```
 */
export interface SignInOptions {
  /** The Entra tenant (directory) id; a token's `tid` must equal it. */
  tenantId: string;
  /** The token's `iss`: `https://login.microsoftonline.com/<tenant>/v2.0` for Entra v2 tokens. */
  issuer: string;
  /** The tenant's signing keys: `https://login.microsoftonline.com/<tenant>/discovery/v2.0/keys`. */
  jwksUrl: string;
  /** The token's `aud`: the app registration's client id (v2 tokens) or its `api://…` URI. */
  audience: string | readonly string[];
}

/**
 * Why a token was refused, as the add-in reads it: `code` is `sign_in_required` (no token),
 * `token_expired` or `token_invalid`; each means "sign in again".
 *
 * ## Example
 * ```ts
 * reply.code(401).send({ error: "Unauthorized", code: error.code, message: error.message });
 * ```
 */
export class UserTokenError extends Error {
  override readonly name = "UserTokenError" as const;
  constructor(
    readonly code: "sign_in_required" | "token_expired" | "token_invalid",
    message: string
  ) {
    super(message);
  }
}

/** Clock skew allowed between this server and the issuer. */
const CLOCK_TOLERANCE_S = 60;

/**
 * Makes the token check of a tenant: the signature against the tenant's published keys (fetched
 * and cached by jose, refreshed when an unknown key id appears), RS256 only (so `alg: none` and
 * HMAC tricks fail), the issuer, the audience, the expiry and the tenant id `tid`.
 *
 * ## Example
 * ```ts
 * const verify = userTokenVerifier(signIn);
 * const user = await verify(bearerToken, groupsFile);
 * ```
 *
 * @param options The tenant and the audience.
 * @return A function resolving a token to its user, or rejecting with `UserTokenError`.
 */
export function userTokenVerifier(
  options: SignInOptions
): (
  token: string,
  extraGroups?: (user: SignedInUser) => readonly string[]
) => Promise<SignedInUser> {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), { cooldownDuration: 30_000 });
  return async (token, extraGroups) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: typeof options.audience === "string" ? options.audience : [...options.audience],
        algorithms: ["RS256"],
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ["exp", "tid"],
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) {
        throw new UserTokenError("token_expired", "Your sign-in has expired: sign in again.");
      }
      throw new UserTokenError(
        "token_invalid",
        `Your sign-in was not accepted (${reasonOf(error)}): sign in again.`
      );
    }
    if (payload.tid !== options.tenantId) {
      throw new UserTokenError(
        "token_invalid",
        "Your sign-in is from another organisation: sign in again with your work account."
      );
    }
    const id = stringClaim(payload, "oid") ?? payload.sub;
    if (!id)
      throw new UserTokenError("token_invalid", "Your sign-in names no user: sign in again.");
    const name =
      stringClaim(payload, "preferred_username") ??
      stringClaim(payload, "upn") ??
      stringClaim(payload, "email") ??
      id;
    const tokenGroups = Array.isArray(payload.groups)
      ? payload.groups.filter((group): group is string => typeof group === "string")
      : [];
    const user: SignedInUser = { id, name, groups: tokenGroups };
    const more = extraGroups?.(user) ?? [];
    return { ...user, groups: [...new Set([...tokenGroups, ...more])] };
  };
}

function stringClaim(payload: JWTPayload, name: string): string | undefined {
  const value = payload[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** jose's reason in a few words, without the token. */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTClaimValidationFailed) return `${error.claim} does not match`;
  if (error instanceof errors.JWSSignatureVerificationFailed) return "signature does not verify";
  if (error instanceof errors.JWKSNoMatchingKey) return "signed by an unknown key";
  if (error instanceof errors.JOSEAlgNotAllowed) return "algorithm not allowed";
  if (error instanceof errors.JOSEError) return error.code;
  return "unreadable token";
}
