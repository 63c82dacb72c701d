import type { OrganisationConfig } from "../../addin/organisation/organisationConfig.js";
import { organisationConfig } from "../../addin/organisation/organisationConfig.js";
import { organisationFetch } from "../../addin/organisation/organisationFetch.js";
import { gatewayRefusalMessage } from "../../addin/organisation/gatewayRefusalMessage.js";
import { SpellHttpError } from "../../src/index.js";
import {
  forgetOrganisationToken,
  onSignedInUser,
} from "../../addin/organisation/organisationSignIn.js";

const CONFIG: OrganisationConfig = {
  mode: "organisation",
  tenantId: "t",
  clientId: "c",
  devSignIn: false,
};

/** A JWT-shaped token (unsigned: the add-in only reads the name; the server checks it). */
function tokenFor(user: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256" })}.${part({ preferred_username: user, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
}

describe("the add-in in organisation mode", () => {
  let officeRuntime: unknown;

  beforeEach(() => {
    forgetOrganisationToken();
    officeRuntime = (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime;
  });
  afterEach(() => {
    (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime = officeRuntime;
  });

  it("should send the signed-in user's token instead of the placeholder key, and say who is signed in", async () => {
    const getAccessToken = jasmine
      .createSpy("getAccessToken")
      .and.resolveTo(tokenFor("alice@contoso.com"));
    (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime = { auth: { getAccessToken } };
    const sent: Headers[] = [];
    const fetchFn = (async (_url: string, init: RequestInit) => {
      sent.push(new Headers(init.headers));
      return new Response("{}", { status: 200 });
    }) as unknown as typeof fetch;
    const names: (string | undefined)[] = [];
    const stop = onSignedInUser((name) => names.push(name));
    const call = organisationFetch(CONFIG, fetchFn);
    await call("https://addin.example/spell-api/spells/start", {
      method: "POST",
      headers: { Authorization: "Bearer spellrun-organisation-holds-the-key" },
    });
    await call("https://addin.example/spell-poll/spells/getRun?runId=1");
    stop();
    expect(sent.map((headers) => headers.get("authorization"))).toEqual([
      `Bearer ${tokenFor("alice@contoso.com")}`,
      `Bearer ${tokenFor("alice@contoso.com")}`,
    ]);
    // One sign-in for both calls: the token is kept until shortly before it expires.
    expect(getAccessToken).toHaveBeenCalledTimes(1);
    expect(names).toContain("alice@contoso.com");
  });

  it("should keep the user's token when the server says the organisation's key was refused, and show the server's text", async () => {
    const getAccessToken = jasmine
      .createSpy("getAccessToken")
      .and.resolveTo(tokenFor("alice@contoso.com"));
    (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime = { auth: { getAccessToken } };
    const refusal = {
      error: "Bad Gateway",
      code: "organisation_key_refused",
      message: "Your organisation's Spell key was refused by the service; tell your administrator.",
    };
    const fetchFn = (async () =>
      new Response(JSON.stringify(refusal), {
        status: 502,
        headers: { "content-type": "application/json" },
      })) as unknown as typeof fetch;
    const call = organisationFetch(CONFIG, fetchFn);
    expect((await call("https://addin.example/spell-api/spells/start")).status).toBe(502);
    await call("https://addin.example/spell-api/spells/start");
    // The sign-in was good: no new token for the second call.
    expect(getAccessToken).toHaveBeenCalledTimes(1);
    expect(gatewayRefusalMessage(new SpellHttpError(502, refusal, "POST", "start"))).toBe(
      refusal.message
    );
  });

  it("should answer 'sign in again' itself, sending nothing, when single sign-on fails", async () => {
    (globalThis as { OfficeRuntime?: unknown }).OfficeRuntime = {
      auth: { getAccessToken: () => Promise.reject(new Error("13001 not signed in")) },
    };
    const fetchFn = jasmine.createSpy("fetch");
    const answer = await organisationFetch(
      CONFIG,
      fetchFn as unknown as typeof fetch
    )("https://addin.example/spell-api/spells/start");
    expect(fetchFn).not.toHaveBeenCalled();
    expect(answer.status).toBe(401);
    const body = (await answer.json()) as { code: string; message: string };
    expect(body.code).toBe("sign_in_required");
    expect(body.message).toMatch(/^Sign in again/);
  });

  it("should find the organisation mode at the host's /org/config, and treat a host without it as pass-through", async () => {
    const gateway = (async () =>
      new Response(JSON.stringify(CONFIG), { status: 200 })) as unknown as typeof fetch;
    expect(await organisationConfig(gateway, "https://gateway.example")).toEqual(CONFIG);
    const notFound = (async () =>
      new Response("Not found", { status: 404 })) as unknown as typeof fetch;
    expect(await organisationConfig(notFound, "https://plain-host.example")).toBeUndefined();
  });
});
