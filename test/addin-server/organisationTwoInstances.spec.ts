import fc from "fast-check";
import {
  createLocalIssuer,
  type LocalIssuer,
} from "../../addin-server/src/localIssuer/createLocalIssuer.js";
import { migrate } from "../../addin-server/src/organisation/ledger/migrations.js";
import { openDatabase } from "../../addin-server/src/organisation/ledger/openDatabase.js";
import type { SqlDatabase } from "../../addin-server/src/organisation/ledger/SqlDatabase.js";
import { startRecordingUpstream, type RecordingUpstream } from "./support/recordingUpstream.js";
import {
  emptyLedger,
  startOrganisationGateway,
  type OrganisationGateway,
} from "./support/organisationGateway.js";
import {
  postgresBinaries,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./support/throwawayPostgres.js";

const USERS = ["ann@example.test", "ben@example.test", "cat@example.test"];
const BUDGETS = {
  global: { perDay: 14 },
  users: { default: { perDay: 6 } },
  groups: { sales: { perMonth: 10 } },
};

describe("addin-server organisation mode, two instances on one PostgreSQL", () => {
  const binaries = postgresBinaries();
  let postgres: ThrowawayPostgres | undefined;
  let issuer: LocalIssuer;
  let upstream: RecordingUpstream;
  let database: SqlDatabase;
  let gateways: OrganisationGateway[] = [];

  beforeAll(async () => {
    if (!binaries) return;
    postgres = await startThrowawayPostgres(binaries);
    issuer = await createLocalIssuer({
      tenantId: "tenant-two",
      audience: "spellrun-addin",
      users: { "ann@example.test": ["sales"], "ben@example.test": ["sales"] },
    });
    // Slow enough that calls overlap on both instances.
    upstream = await startRecordingUpstream((request) =>
      request.url.endsWith("/bulkStart")
        ? { status: 200, body: { runId: "bulk" }, delayMs: 5 }
        : { status: 200, body: { runId: "run" }, delayMs: 5 }
    );
    database = await openDatabase(postgres.url);
    await migrate(database);
    // Each instance opens its own pool from the URL, as two servers behind a load balancer do.
    gateways = await Promise.all(
      [0, 1].map(() =>
        startOrganisationGateway({
          issuer,
          upstreamUrl: upstream.url,
          database: postgres!.url,
          budgets: BUDGETS,
        })
      )
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    await database?.close();
    await Promise.all([issuer?.close(), upstream?.close()]);
    await postgres?.stop();
  }, 30_000);

  it("should never start more runs than the budgets allow when both charge at once (generated calls)", async () => {
    if (!binaries) {
      pending("PostgreSQL's initdb/pg_ctl not found (.ci/run installs Debian's postgresql)");
      return;
    }
    const tokens = await Promise.all(USERS.map((user) => issuer.sign({ user })));
    const call = fc.record({
      user: fc.integer({ min: 0, max: USERS.length - 1 }),
      instance: fc.integer({ min: 0, max: 1 }),
      // 0: a start; n > 0: a bulkStart of n inputs.
      bulkRows: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 })),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 5, maxLength: 30 }), async (calls) => {
        await emptyLedger(database);
        upstream.requests.length = 0;
        const answers = await Promise.all(
          calls.map(({ user, instance, bulkRows }) =>
            fetch(
              `${gateways[instance]!.url}/spell-api/spells/${bulkRows > 0 ? "bulkStart" : "start"}`,
              {
                method: "POST",
                headers: {
                  "content-type": "application/json",
                  authorization: `Bearer ${tokens[user]}`,
                },
                body: JSON.stringify(
                  bulkRows > 0
                    ? { spellId: "s", inputs: Array.from({ length: bulkRows }, () => ({})) }
                    : { spellId: "s", wait: false, inputs: {} }
                ),
              }
            ).then((answer) => answer.status)
          )
        );
        expect(answers.every((status) => status === 200 || status === 403)).toBe(true);
        const runsOf = (index: number) => Math.max(1, calls[index]!.bulkRows);
        const forwarded = upstream.requests.map((request) => {
          const body = JSON.parse(request.body) as { inputs: unknown };
          return Array.isArray(body.inputs) ? body.inputs.length : 1;
        });
        const startedRuns = forwarded.reduce((sum, runs) => sum + runs, 0);
        const acceptedRuns = answers.reduce(
          (sum, status, index) => sum + (status === 200 ? runsOf(index) : 0),
          0
        );
        expect(startedRuns).toBe(acceptedRuns);
        // The ledger holds exactly what was forwarded, and no budget is passed.
        const ledger = await database.query<{ user_name: string; groups: string[]; runs: number }>(
          "SELECT user_name, groups, runs FROM usage_ledger WHERE NOT refunded"
        );
        expect(ledger.reduce((sum, row) => sum + row.runs, 0)).toBe(startedRuns);
        expect(startedRuns).toBeLessThanOrEqual(BUDGETS.global.perDay);
        for (const user of USERS) {
          const own = ledger
            .filter((row) => row.user_name === user)
            .reduce((sum, row) => sum + row.runs, 0);
          expect(own).withContext(user).toBeLessThanOrEqual(BUDGETS.users.default.perDay);
        }
        const sales = ledger
          .filter((row) => row.groups.includes("sales"))
          .reduce((sum, row) => sum + row.runs, 0);
        expect(sales).toBeLessThanOrEqual(BUDGETS.groups.sales.perMonth);
        // Nothing refused for nothing: usage only grows, so a refused call's runs pass at least one
        // of its budgets even at the end.
        const usedBy = (who: (row: (typeof ledger)[number]) => boolean) =>
          ledger.filter(who).reduce((sum, row) => sum + row.runs, 0);
        answers.forEach((status, index) => {
          if (status !== 403) return;
          const user = USERS[calls[index]!.user]!;
          const runs = runsOf(index);
          const inSales = user !== "cat@example.test";
          const passes =
            startedRuns + runs > BUDGETS.global.perDay ||
            usedBy((row) => row.user_name === user) + runs > BUDGETS.users.default.perDay ||
            (inSales && sales + runs > BUDGETS.groups.sales.perMonth);
          expect(passes).withContext(`refused call ${index} of ${user} (${runs} runs)`).toBe(true);
        });
      }),
      { numRuns: 8 }
    );
  }, 60_000);
});
