import fc from "fast-check";
import type { Budgets } from "../../addin-server/src/organisation/budgets/Budgets.js";
import type { SqlDatabase } from "../../addin-server/src/organisation/ledger/SqlDatabase.js";
import { UsageLedger } from "../../addin-server/src/organisation/ledger/UsageLedger.js";
import { emptyLedger, sharedPglite } from "./support/organisationGateway.js";

const USERS = [
  { id: "u1", name: "ann", groups: ["sales"] },
  { id: "u2", name: "ben", groups: ["sales", "ops"] },
  { id: "u3", name: "cat", groups: [] },
];
const BUDGETS: Budgets = {
  global: { perDay: 12 },
  users: { default: { perDay: 6 }, cat: { perDay: 3 } },
  groups: { sales: { perDay: 8 }, ops: { perMonth: 4 } },
};

type Step =
  | { kind: "charge"; user: number; runs: number; key?: string }
  | { kind: "refund"; pick: number }
  | { kind: "pause"; paused: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("charge" as const),
      user: fc.integer({ min: 0, max: 2 }),
      runs: fc.integer({ min: 1, max: 4 }),
      key: fc.option(fc.constantFrom("k1", "k2", "k3"), { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("refund" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("pause" as const), paused: fc.boolean() }) }
);

describe("UsageLedger (generated sequences of charges, repeats, refunds and the kill switch)", () => {
  let database: SqlDatabase;

  beforeAll(async () => {
    database = await sharedPglite();
  }, 60_000);

  it("should delete ledger rows and counters older than the retention, and keep the rest", async () => {
    await emptyLedger(database);
    const ledger = new UsageLedger(database, () => new Date("2026-11-26T12:00:00Z"));
    const old = new UsageLedger(database, () => new Date("2026-08-01T12:00:00Z"));
    await old.charge({ user: USERS[0]!, endpoint: "start", spellId: "s", runs: 1 }, {});
    await ledger.charge({ user: USERS[0]!, endpoint: "start", spellId: "s", runs: 1 }, {});
    expect(await ledger.prune(30)).toBe(1);
    const left = await database.query<{ day: string }>("SELECT day FROM usage_ledger");
    expect(left).toEqual([{ day: "2026-11-26" }]);
    const periods = await database.query<{ period: string }>(
      "SELECT DISTINCT period FROM budget_counters ORDER BY period"
    );
    expect(periods.map((row) => row.period)).toEqual(["2026-11", "2026-11-26"]);
  });

  it("should charge exactly what a model allows (repeats refused while their charge stands), never pass a budget, and keep counters equal to the ledger", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 20 }), async (steps) => {
        await emptyLedger(database);
        const ledger = new UsageLedger(database);
        // The model: standing charges (not refunded) and the switch.
        const standing: { id: string; user: number; runs: number; key?: string }[] = [];
        const keys = new Map<string, { runs: number; refunded: boolean }>();
        let paused = false;
        const used = (filter: (user: (typeof USERS)[number]) => boolean) =>
          standing
            .filter((charge) => filter(USERS[charge.user]!))
            .reduce((sum, c) => sum + c.runs, 0);
        for (const action of steps) {
          if (action.kind === "pause") {
            await ledger.setPaused(action.paused, "admin");
            paused = action.paused;
            continue;
          }
          if (action.kind === "refund") {
            if (standing.length === 0) continue;
            const [charge] = standing.splice(action.pick % standing.length, 1);
            await ledger.refund(charge!.id, 400);
            if (charge!.key) keys.get(`${charge!.user}/${charge!.key}`)!.refunded = true;
            continue;
          }
          const user = USERS[action.user]!;
          const outcome = await ledger.charge(
            {
              user,
              endpoint: "bulkStart",
              spellId: "s",
              runs: action.runs,
              ...(action.key ? { requestKey: action.key } : {}),
            },
            BUDGETS
          );
          const seen = action.key ? keys.get(`${action.user}/${action.key}`) : undefined;
          if (seen && (seen.runs !== action.runs || !seen.refunded)) {
            // Another call under a used key, or the same call while its charge stands.
            expect(outcome.kind).withContext(JSON.stringify(action)).toBe("refused");
            continue;
          }
          const limit = user.name === "cat" ? 3 : 6;
          const fits =
            !paused &&
            used(() => true) + action.runs <= 12 &&
            used((other) => other.id === user.id) + action.runs <= limit &&
            (!user.groups.includes("sales") ||
              used((o) => o.groups.includes("sales")) + action.runs <= 8) &&
            (!user.groups.includes("ops") ||
              used((o) => o.groups.includes("ops")) + action.runs <= 4);
          expect(outcome.kind)
            .withContext(JSON.stringify(action))
            .toBe(fits ? "charged" : "refused");
          if (outcome.kind === "charged") {
            standing.push({
              id: outcome.ledgerId,
              user: action.user,
              runs: action.runs,
              ...(action.key ? { key: action.key } : {}),
            });
            if (action.key)
              keys.set(`${action.user}/${action.key}`, {
                runs: action.runs,
                refunded: false,
              });
          }
        }
        // The counters equal the ledger's standing rows, user by user and in total.
        const counters = await database.query<{
          scope: string;
          subject: string;
          period: string;
          runs: number;
        }>("SELECT scope, subject, period, runs FROM budget_counters WHERE length(period) = 10");
        const rows = await database.query<{ user_id: string; runs: number }>(
          "SELECT user_id, runs FROM usage_ledger WHERE NOT refunded"
        );
        for (const user of USERS) {
          const counter =
            counters.find((c) => c.scope === "user" && c.subject === user.id)?.runs ?? 0;
          const ledgerRuns = rows
            .filter((r) => r.user_id === user.id)
            .reduce((s, r) => s + r.runs, 0);
          expect(counter).withContext(user.name).toBe(ledgerRuns);
        }
        expect(counters.find((c) => c.scope === "global")?.runs ?? 0).toBe(
          rows.reduce((s, r) => s + r.runs, 0)
        );
      }),
      { numRuns: 25 }
    );
    await emptyLedger(database);
  }, 60_000);
});
