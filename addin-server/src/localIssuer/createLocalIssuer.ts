import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";

/** A user name the issuer signs for: no spaces or markup characters. */
const USER_NAME = /^[^\s<>"'&]{1,200}$/;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * What the local issuer signs for: its tenant, the add-in's audience, and its test users with
 * their groups (a user not listed signs in with no groups).
 *
 * ## Example
 * ```ts
 * const options: LocalIssuerOptions = { tenantId: "local-tenant", audience: "spellrun-dev", users: { "admin@example.test": ["spellrun-admins"] } };
 * ```
 */
export interface LocalIssuerOptions {
  tenantId: string;
  audience: string;
  users?: Record<string, readonly string[]>;
  /** @default 0 (any free port) */
  port?: number;
}

/**
 * A token the local issuer signs, with what a spec may change to make it wrong.
 *
 * ## Example
 * ```ts
 * await issuer.sign({ user: "alice@example.test", expiresInSeconds: -120 }); // expired
 * ```
 */
export interface LocalTokenRequest {
  user: string;
  /** @default the user's groups in `LocalIssuerOptions.users` */
  groups?: readonly string[];
  /** @default 3600 */
  expiresInSeconds?: number;
  /** @default the issuer's audience */
  audience?: string;
  /** @default the issuer's tenant */
  tenantId?: string;
}

/** A running local issuer. */
export interface LocalIssuer {
  /** Its address, `http://127.0.0.1:<port>`. */
  url: string;
  /** Tokens' `iss`, as Entra writes it: `<url>/<tenant>/v2.0`. */
  issuer: string;
  /** Its public keys (JWKS). */
  jwksUrl: string;
  /** `POST {"user": "…"}` answers `{ access_token, token_type, expires_in }` (development sign-in). */
  tokenUrl: string;
  tenantId: string;
  audience: string;
  /** Signs a token (for specs: expired, for another audience or tenant …). */
  sign(request: LocalTokenRequest): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the local issuer on loopback, standing in for Entra ID in development and specs as the
 * emulator stands in for the Spell service: an RS256 key made at start, Entra's paths for the
 * OpenID configuration (`/<tenant>/v2.0/.well-known/openid-configuration`) and the keys
 * (`/<tenant>/discovery/v2.0/keys`), the authorization code flow with PKCE
 * (`/<tenant>/oauth2/v2.0/authorize`, a page asking for a user name) and a token endpoint that also
 * signs a token for any user name posted as JSON; no password: never reachable from anything but
 * this machine.
 *
 * ## Example
 * ```ts
 * const issuer = await createLocalIssuer({ tenantId: "local-tenant", audience: "spellrun-dev" });
 * const token = await issuer.sign({ user: "alice@example.test" });
 * ```
 *
 * @param options Tenant, audience, users, port.
 * @return The running issuer.
 */
export async function createLocalIssuer(options: LocalIssuerOptions): Promise<LocalIssuer> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, use: "sig", alg: "RS256" };
  const users = options.users ?? {};
  let url = "";
  const tenantPath = `/${encodeURIComponent(options.tenantId)}`;
  const issuerOf = () => `${url}${tenantPath}/v2.0`;

  const sign = (request: LocalTokenRequest) =>
    new SignJWT({
      tid: request.tenantId ?? options.tenantId,
      // A stable object id per name, as Entra's oid is stable per account.
      oid: createHash("sha256").update(request.user.toLowerCase()).digest("hex").slice(0, 32),
      preferred_username: request.user,
      name: request.user,
      groups: [...(request.groups ?? users[request.user] ?? [])],
      scp: "access_as_user",
      ver: "2.0",
    })
      .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
      .setIssuer(issuerOf())
      .setAudience(request.audience ?? options.audience)
      .setSubject(request.user)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + (request.expiresInSeconds ?? 3600))
      .sign(privateKey);

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
    response.end(JSON.stringify(body));
  };
  /** Codes handed out by `authorize`, until redeemed (once) or 5 minutes old. */
  const codes = new Map<
    string,
    { user: string; challenge: string; redirectUri: string; clientId: string; madeAt: number }
  >();

  /**
   * The sign-in page of the authorization code flow: without `login_hint` a form asking for a
   * user name (no password: development only), with it a redirect to `redirect_uri` (loopback
   * only) carrying a code and the state.
   */
  const authorize = (query: URLSearchParams, response: ServerResponse) => {
    const redirectUri = query.get("redirect_uri") ?? "";
    const challenge = query.get("code_challenge") ?? "";
    if (
      !/^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(redirectUri) ||
      query.get("code_challenge_method") !== "S256" ||
      challenge === "" ||
      query.get("response_type") !== "code"
    ) {
      return json(response, 400, {
        message: "Needs response_type=code, S256 PKCE and a loopback redirect_uri.",
      });
    }
    const user = query.get("login_hint");
    if (!user || !USER_NAME.test(user)) {
      const hidden = [...query.entries()]
        .filter(([name]) => name !== "login_hint")
        .map(
          ([name, value]) =>
            `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`
        )
        .join("");
      response.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
      });
      response.end(
        `<!doctype html><title>Local issuer: sign in</title><form method="get">${hidden}` +
          `<label>User <input id="login_hint" name="login_hint" autocomplete="username"></label>` +
          `<button id="sign-in" type="submit">Sign in</button></form>`
      );
      return;
    }
    const code = randomUUID();
    codes.set(code, {
      user,
      challenge,
      redirectUri,
      clientId: query.get("client_id") ?? "",
      madeAt: Date.now(),
    });
    const target = new URL(redirectUri);
    target.searchParams.set("code", code);
    const state = query.get("state");
    if (state !== null) target.searchParams.set("state", state);
    response.writeHead(302, { location: target.toString(), "cache-control": "no-store" });
    response.end();
  };

  const redeemCode = async (form: URLSearchParams, response: ServerResponse) => {
    const code = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    const verifier = form.get("code_verifier") ?? "";
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    if (
      !code ||
      form.get("grant_type") !== "authorization_code" ||
      Date.now() - code.madeAt > 5 * 60_000 ||
      code.challenge !== challenge ||
      code.redirectUri !== form.get("redirect_uri") ||
      code.clientId !== form.get("client_id")
    ) {
      return json(response, 400, { error: "invalid_grant", message: "The code is not valid." });
    }
    return json(response, 200, {
      access_token: await sign({ user: code.user }),
      token_type: "Bearer",
      expires_in: 3600,
    });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? "").split("?")[0];
    if (
      request.method === "GET" &&
      path === `${tenantPath}/v2.0/.well-known/openid-configuration`
    ) {
      return json(response, 200, {
        issuer: issuerOf(),
        jwks_uri: `${url}${tenantPath}/discovery/v2.0/keys`,
        token_endpoint: `${url}${tenantPath}/oauth2/v2.0/token`,
        id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (request.method === "GET" && path === `${tenantPath}/discovery/v2.0/keys`) {
      return json(response, 200, { keys: [jwk] });
    }
    if (request.method === "GET" && path === `${tenantPath}/oauth2/v2.0/authorize`) {
      return authorize(new URL(request.url ?? "", url).searchParams, response);
    }
    if (request.method === "POST" && path === `${tenantPath}/oauth2/v2.0/token`) {
      let text = "";
      for await (const chunk of request) {
        text += String(chunk);
        if (text.length > 10_000) return json(response, 413, { message: "too large" });
      }
      // The authorization code flow with PKCE, as a single-page app redeems a code with Entra
      // (a form post from the page's origin, answered with CORS).
      if (String(request.headers["content-type"]).startsWith("application/x-www-form-urlencoded")) {
        response.setHeader("access-control-allow-origin", "*");
        return redeemCode(new URLSearchParams(text), response);
      }
      const user = (JSON.parse(text || "{}") as { user?: unknown }).user;
      if (typeof user !== "string" || !USER_NAME.test(user)) {
        return json(response, 400, { message: "Give a user name (no spaces)." });
      }
      return json(response, 200, {
        access_token: await sign({ user }),
        token_type: "Bearer",
        expires_in: 3600,
      });
    }
    return json(response, 404, { message: "Not found on the local issuer." });
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => json(response, 400, { message: "Bad request." }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    issuer: issuerOf(),
    jwksUrl: `${url}${tenantPath}/discovery/v2.0/keys`,
    tokenUrl: `${url}${tenantPath}/oauth2/v2.0/token`,
    tenantId: options.tenantId,
    audience: options.audience,
    sign,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
