import {
  createLocalIssuer,
  type LocalIssuer,
} from "../../addin-server/src/localIssuer/createLocalIssuer.js";
import type { SqlDatabase } from "../../addin-server/src/organisation/ledger/SqlDatabase.js";
import { startRecordingUpstream, type RecordingUpstream } from "./support/recordingUpstream.js";
import {
  ORGANISATION_KEY,
  emptyLedger,
  sharedPglite,
  startOrganisationGateway,
  startThrough,
  type OrganisationGateway,
} from "./support/organisationGateway.js";

describe("addin-server organisation mode when the service refuses the organisation's key", () => {
  let issuer: LocalIssuer;
  let upstream: RecordingUpstream;
  let database: SqlDatabase;
  let gateway: OrganisationGateway;

  beforeAll(async () => {
    issuer = await createLocalIssuer({
      tenantId: "tenant-org",
      audience: "spellrun-addin",
      users: { "alice@example.test": ["finance"] },
    });
    // A service that only accepts another key, answering as the emulator does.
    upstream = await startRecordingUpstream((request) =>
      request.headers.authorization === "Bearer sk-the-right-key"
        ? { status: 200, body: { runId: "r-1" } }
        : {
            status: 401,
            body: {
              error: "unauthorized",
              message:
                "Missing or wrong API key: send Authorization: Bearer <key> or x-api-key: <key>",
            },
          }
    );
    database = await sharedPglite();
    gateway = await startOrganisationGateway({ issuer, upstreamUrl: upstream.url, database });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([issuer?.close(), upstream?.close()]);
  });

  beforeEach(async () => {
    upstream.requests.length = 0;
    await emptyLedger(database);
  });

  it("should answer a JSON 502 organisation_key_refused, refund the charge and log it without the key", async () => {
    gateway.setBudgets({ users: { default: { perDay: 1 } } });
    // The gateway is shared with the other spec of this file, which may have run first.
    const logStart = gateway.logs().length;
    const refusedBefore = await refusedMetric(gateway.url);
    const token = await issuer.sign({ user: "alice@example.test" });
    const first = await startThrough(gateway, token);
    // The budget allows one run a day: a second refusal (not a 403 budget_exhausted) shows the
    // first charge was given back.
    const second = await startThrough(gateway, token);
    for (const answer of [first, second]) {
      expect(answer.status).toBe(502);
      expect(answer.body).toEqual({
        statusCode: 502,
        error: "Bad Gateway",
        code: "organisation_key_refused",
        message:
          "Your organisation's Spell key was refused by the service; tell your administrator.",
      });
    }
    expect(upstream.requests.length).toBe(2);
    expect(upstream.requests[0]!.headers.authorization).toBe(`Bearer ${ORGANISATION_KEY}`);
    const rows = await database.query<Record<string, unknown>>(
      "SELECT status, refunded FROM usage_ledger ORDER BY id"
    );
    expect(rows).toEqual([
      { status: 401, refunded: true },
      { status: 401, refunded: true },
    ]);
    const refusedLines = gateway
      .logs()
      .slice(logStart)
      .split("\n")
      .filter((line) => line.includes("organisation_key_refused"));
    expect(refusedLines.length).toBe(2);
    expect(refusedLines[0]).toContain('"level":50');
    expect(gateway.logs()).not.toContain(ORGANISATION_KEY);
    expect(await refusedMetric(gateway.url)).toBe(refusedBefore + 2);
  });

  it("should answer the same on a call that starts nothing (getRun)", async () => {
    const token = await issuer.sign({ user: "alice@example.test" });
    const answer = await fetch(`${gateway.url}/spell-poll/spells/getRun?runId=r-1`, {
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
    });
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as { code?: string }).code).toBe("organisation_key_refused");
  });
});

/** The gateway's count of calls whose organisation key the service refused with a 401. */
async function refusedMetric(url: string): Promise<number> {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const found = /spellrun_organisation_key_refused_total\{status="401"\} (\d+)/.exec(metrics);
  return Number(found?.[1] ?? 0);
}
