import { generateKeyPair, SignJWT } from "jose";
import { writeFileSync } from "node:fs";
import {
  createLocalIssuer,
  type LocalIssuer,
} from "../../addin-server/src/localIssuer/createLocalIssuer.js";
import type { SqlDatabase } from "../../addin-server/src/organisation/ledger/SqlDatabase.js";
import { startRecordingUpstream, type RecordingUpstream } from "./support/recordingUpstream.js";
import {
  ADMIN_GROUP,
  ORGANISATION_KEY,
  emptyLedger,
  sharedPglite,
  startOrganisationGateway,
  startThrough,
  type OrganisationGateway,
} from "./support/organisationGateway.js";

describe("addin-server organisation mode (sign-in, the organisation's key, budgets, ledger)", () => {
  let issuer: LocalIssuer;
  let upstream: RecordingUpstream;
  let database: SqlDatabase;
  let gateway: OrganisationGateway;

  beforeAll(async () => {
    issuer = await createLocalIssuer({
      tenantId: "tenant-org",
      audience: "spellrun-addin",
      users: {
        "alice@example.test": ["finance"],
        "bob@example.test": ["finance"],
        "admin@example.test": [ADMIN_GROUP],
      },
    });
    upstream = await startRecordingUpstream((request) => {
      const body = request.body ? (JSON.parse(request.body) as { spellId?: string }) : {};
      if (body.spellId === "refused") return { status: 400, body: { error: "unknown spell" } };
      if (body.spellId === "html-page") {
        return {
          status: 200,
          body: "<script>alert(1)</script>",
          headers: {
            "content-type": "text/html",
            "content-security-policy": "default-src *",
          } as Record<string, string>,
        };
      }
      if (body.spellId === "own-headers") {
        return {
          status: 200,
          body: '{"runId":"r-9"}',
          headers: {
            "content-security-policy": "default-src *",
            "set-cookie": "a=1",
            "access-control-allow-origin": "*",
          } as Record<string, string>,
        };
      }
      if (body.spellId === "echo") {
        return { status: 500, body: { error: `bad key ${String(request.headers.authorization)}` } };
      }
      if (request.url === "/v1/spells/bulkStart") return { status: 200, body: { runId: "bulk-7" } };
      if (request.url === "/v1/spells/start") {
        return { status: 200, body: '{"runId": 123456789012345678901}' };
      }
      return { status: 200, body: { state: "success", outputs: {} } };
    });
    database = await sharedPglite();
    gateway = await startOrganisationGateway({
      issuer,
      upstreamUrl: upstream.url,
      database,
      groups: { "carol@example.test": ["finance"] },
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([issuer?.close(), upstream?.close()]);
  });

  beforeEach(async () => {
    upstream.requests.length = 0;
    await emptyLedger(database);
    gateway.setBudgets({});
  });

  const ledgerRows = () =>
    database.query<Record<string, unknown>>(
      "SELECT user_name, groups, endpoint, spell_id, runs, status, run_id, refunded, replays FROM usage_ledger ORDER BY id"
    );

  it("should forward a signed-in user's start with the organisation's key, not the user's token, and put it on the ledger", async () => {
    const token = await issuer.sign({ user: "alice@example.test" });
    const answer = await startThrough(gateway, token);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('{"runId": 123456789012345678901}');
    expect(upstream.requests.length).toBe(1);
    expect(upstream.requests[0]!.headers.authorization).toBe(`Bearer ${ORGANISATION_KEY}`);
    expect(JSON.stringify(upstream.requests[0]!.headers)).not.toContain(token);
    expect(await ledgerRows()).toEqual([
      {
        user_name: "alice@example.test",
        groups: ["finance"],
        endpoint: "start",
        spell_id: "summarize",
        runs: 1,
        status: 200,
        run_id: "123456789012345678901",
        refunded: false,
        replays: 0,
      },
    ]);
  });

  it("should forward through the edge's hygiene: only the organisation's key, the server's security headers, JSON only (on the ledger)", async () => {
    const token = await issuer.sign({ user: "alice@example.test" });
    const send = (spellId: string) =>
      fetch(`${gateway.url}/spell-api/spells/start`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${token}`,
          "x-api-key": "sk-users-own-key",
          "x-forwarded-for": "10.9.9.9",
          "idempotency-key": `call-${spellId}`,
        },
        body: JSON.stringify({ spellId, wait: false, inputs: {} }),
      });
    const passed = await send("own-headers");
    expect(passed.status).toBe(200);
    expect(await passed.text()).toBe('{"runId":"r-9"}');
    expect(passed.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(passed.headers.get("x-content-type-options")).toBe("nosniff");
    expect(passed.headers.get("set-cookie")).toBeNull();
    expect(passed.headers.get("access-control-allow-origin")).toBeNull();
    const sent = upstream.requests[0]!.headers;
    expect(sent.authorization).toBe(`Bearer ${ORGANISATION_KEY}`);
    expect(sent["x-api-key"]).toBeUndefined();
    expect(sent["x-forwarded-for"]).toBeUndefined();
    expect(sent["idempotency-key"]).toBeUndefined();

    const page = await send("html-page");
    expect(page.status).toBe(502);
    expect(page.headers.get("content-type")).toContain("application/json");
    expect(await page.text()).not.toContain("<script>");
    const rows = await ledgerRows();
    expect(rows.map((row) => [row.spell_id, row.status, row.run_id, row.refunded])).toEqual([
      ["own-headers", 200, "r-9", false],
      ["html-page", 502, null, false],
    ]);
  });

  it("should refuse calls without a valid sign-in with a JSON 401 and forward nothing", async () => {
    const { privateKey: otherKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT({
      tid: issuer.tenantId,
      oid: "x",
      preferred_username: "mallory",
    })
      .setProtectedHeader({ alg: "RS256", kid: "any" })
      .setIssuer(issuer.issuer)
      .setAudience(issuer.audience)
      .setExpirationTime("1h")
      .sign(otherKey);
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const unsigned = `${encode({ alg: "none", typ: "JWT" })}.${encode({
      iss: issuer.issuer,
      aud: issuer.audience,
      tid: issuer.tenantId,
      oid: "x",
      exp: Math.floor(Date.now() / 1000) + 3600,
    })}.`;
    const cases: [string, string | undefined, string][] = [
      ["no token", undefined, "sign_in_required"],
      [
        "expired",
        await issuer.sign({ user: "alice@example.test", expiresInSeconds: -120 }),
        "token_expired",
      ],
      [
        "wrong audience",
        await issuer.sign({ user: "alice@example.test", audience: "another-app" }),
        "token_invalid",
      ],
      [
        "wrong tenant",
        await issuer.sign({ user: "alice@example.test", tenantId: "tenant-other" }),
        "token_invalid",
      ],
      ["forged (another key)", forged, "token_invalid"],
      ["alg none", unsigned, "token_invalid"],
      ["the organisation's key itself", ORGANISATION_KEY, "token_invalid"],
    ];
    for (const [name, token, code] of cases) {
      const answer = await startThrough(gateway, token);
      expect(answer.status).withContext(name).toBe(401);
      expect(answer.body.code).withContext(name).toBe(code);
      expect(answer.body.message)
        .withContext(name)
        .toMatch(/sign in/i);
    }
    const poll = await fetch(`${gateway.url}/spell-poll/spells/getRun?runId=1`);
    expect(poll.status).toBe(401);
    expect(upstream.requests.length).toBe(0);
    expect(await ledgerRows()).toEqual([]);
  });

  it("should keep the key out of answers, logs and the ledger, even when the service echoes it", async () => {
    const token = await issuer.sign({ user: "alice@example.test" });
    const answer = await startThrough(gateway, token, { spellId: "echo", wait: false, inputs: {} });
    expect(answer.status).toBe(500);
    expect(answer.text).toContain("bad key Bearer ");
    expect(answer.text).not.toContain(ORGANISATION_KEY);
    expect(gateway.logs()).toContain("alice@example.test");
    expect(gateway.logs()).not.toContain(ORGANISATION_KEY);
    const everything = JSON.stringify(await database.query("SELECT * FROM usage_ledger"));
    expect(everything).not.toContain(ORGANISATION_KEY);
    expect(everything).not.toContain("hello");
  });

  it("should refuse a start past the user's daily limit with a message naming the limit and the reset", async () => {
    gateway.setBudgets({ users: { default: { perDay: 2 } } });
    const alice = await issuer.sign({ user: "alice@example.test" });
    const bob = await issuer.sign({ user: "bob@example.test" });
    expect((await startThrough(gateway, alice)).status).toBe(200);
    expect((await startThrough(gateway, alice)).status).toBe(200);
    const refused = await startThrough(gateway, alice);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("budget_exhausted");
    expect(refused.body.message).toMatch(
      /^Your daily limit of 2 runs is reached; resets at \d{4}-\d\d-\d\d 00:00 UTC\.$/
    );
    // Another user has a budget of their own.
    expect((await startThrough(gateway, bob)).status).toBe(200);
    expect(upstream.requests.length).toBe(3);
  });

  it("should count a bulkStart as its number of inputs against the group's budget (groups from the token and the groups file)", async () => {
    gateway.setBudgets({ groups: { finance: { perMonth: 5 } } });
    const bulk = (token: string, rows: number) =>
      fetch(`${gateway.url}/spell-api/spells/bulkStart`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({
          spellId: "classify",
          inputs: Array.from({ length: rows }, () => ({})),
        }),
      });
    const alice = await issuer.sign({ user: "alice@example.test" });
    const carol = await issuer.sign({ user: "carol@example.test" });
    expect((await bulk(alice, 3)).status).toBe(200);
    const refused = await bulk(carol, 3);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^This call needs more runs than the 2 left of your group finance's monthly limit of 5; resets at /
    );
    expect((await bulk(carol, 2)).status).toBe(200);
    const rows = await ledgerRows();
    expect(rows.map((row) => [row.user_name, row.runs, row.run_id])).toEqual([
      ["alice@example.test", 3, "bulk-7"],
      ["carol@example.test", 2, "bulk-7"],
    ]);
  });

  it("should never send a call again while its charge stands, and charge a call again only after a refund (Idempotency-Key)", async () => {
    gateway.setBudgets({ users: { default: { perDay: 2 } } });
    const alice = await issuer.sign({ user: "alice@example.test" });
    const refusedBody = { spellId: "refused", wait: false, inputs: {} };
    const first = { "idempotency-key": "call-1" };
    // The service refuses (started nothing): refunded; the client's retry is charged as new.
    expect((await startThrough(gateway, alice, refusedBody, first)).status).toBe(400);
    expect((await startThrough(gateway, alice, refusedBody, first)).status).toBe(400);
    const second = { "idempotency-key": "call-2" };
    expect((await startThrough(gateway, alice, undefined, second)).status).toBe(200);
    // The same call again while its charge stands: not sent, not charged.
    const repeated = await startThrough(gateway, alice, undefined, second);
    expect(repeated.status).toBe(409);
    expect(repeated.body.code).toBe("already_started");
    // The same key for another call: refused.
    const reused = await startThrough(gateway, alice, refusedBody, second);
    expect(reused.body.code).toBe("request_key_reused");
    expect((await startThrough(gateway, alice)).status).toBe(200);
    expect((await startThrough(gateway, alice)).status).toBe(403);
    expect(upstream.requests.length).toBe(4);
    expect(upstream.requests.some((request) => "idempotency-key" in request.headers)).toBe(false);
    const rows = await ledgerRows();
    expect(rows.map((row) => [row.spell_id, row.refunded, row.replays, row.status])).toEqual([
      ["refused", true, 0, 400],
      ["summarize", false, 1, 200],
      ["summarize", false, 0, 200],
    ]);
  });

  it("should stop every start while the kill switch is on, switched by an admin only", async () => {
    const alice = await issuer.sign({ user: "alice@example.test" });
    const admin = await issuer.sign({ user: "admin@example.test" });
    const pause = (token: string, paused: boolean) =>
      fetch(`${gateway.url}/admin/api/pause`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ paused }),
      });
    expect((await pause(alice, true)).status).toBe(403);
    expect((await pause(admin, true)).status).toBe(200);
    const refused = await startThrough(gateway, alice);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("organisation_paused");
    expect((await pause(admin, false)).status).toBe(200);
    expect((await startThrough(gateway, alice)).status).toBe(200);
    expect(upstream.requests.length).toBe(1);
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(metrics).toMatch(/spellrun_runs_refused_total\{reason="paused"\} 1/);
    expect(metrics).toMatch(/spellrun_runs_started_total\{endpoint="start"\} \d+/);
  });

  it("should use a rotated key file without a restart", async () => {
    const alice = await issuer.sign({ user: "alice@example.test" });
    writeFileSync(gateway.keyFile, "sk-rotated-key-2\n");
    gateway.app.organisation!.reload();
    expect((await startThrough(gateway, alice)).status).toBe(200);
    expect(upstream.requests[0]!.headers.authorization).toBe("Bearer sk-rotated-key-2");
    writeFileSync(gateway.keyFile, `${ORGANISATION_KEY}\n`);
    gateway.app.organisation!.reload();
  });
});
