import type { Budgets } from "../budgets/Budgets";
import { budgetPeriods } from "../budgets/budgetPeriods";
import type { SqlDatabase } from "./SqlDatabase";

/**
 * Usage between two days (inclusive, UTC) as the admin page and `spellrun-addin-server usage`
 * show it: runs per user, group, spell and day (refunded charges left out), what is left of each
 * configured budget now, and the kill switch.
 *
 * ## Example
 * ```ts
 * const report: UsageReport = await usageReport(database, budgets, { from: "2026-11-01", to: "2026-11-30" });
 * ```
 */
export interface UsageReport {
  from: string;
  to: string;
  paused: boolean;
  byUser: { user: string; runs: number; calls: number }[];
  byGroup: { group: string; runs: number }[];
  bySpell: { spellId: string; runs: number }[];
  byDay: { day: string; runs: number }[];
  budgets: {
    scope: "user" | "group" | "global";
    subject: string;
    period: "day" | "month";
    limit: number;
    used: number;
    remaining: number;
  }[];
}

/**
 * Reads the usage report (see `UsageReport`).
 *
 * @param database The ledger's database.
 * @param budgets The budgets in force.
 * @param range The first and last day (`YYYY-MM-DD`); default this month so far.
 * @param now The moment "now" (the budgets' current day and month).
 * @return The report.
 */
export async function usageReport(
  database: Pick<SqlDatabase, "query">,
  budgets: Budgets,
  range: { from?: string; to?: string } = {},
  now: Date = new Date()
): Promise<UsageReport> {
  const periods = budgetPeriods(now);
  const from = range.from ?? `${periods.month}-01`;
  const to = range.to ?? periods.day;
  const window = [from, to];
  const counted = "day BETWEEN $1 AND $2 AND NOT refunded";
  const [byUser, byGroup, bySpell, byDay, paused, counters] = await Promise.all([
    database.query<{ user: string; runs: number; calls: number }>(
      `SELECT user_name AS "user", SUM(runs)::integer AS runs, COUNT(*)::integer AS calls
       FROM usage_ledger WHERE ${counted} GROUP BY user_name ORDER BY runs DESC, user_name`,
      window
    ),
    database.query<{ group: string; runs: number }>(
      `SELECT member AS "group", SUM(runs)::integer AS runs
       FROM usage_ledger CROSS JOIN LATERAL unnest(groups) AS member
       WHERE ${counted} GROUP BY member ORDER BY runs DESC, member`,
      window
    ),
    database.query<{ spellId: string; runs: number }>(
      `SELECT spell_id AS "spellId", SUM(runs)::integer AS runs
       FROM usage_ledger WHERE ${counted} GROUP BY spell_id ORDER BY runs DESC, spell_id`,
      window
    ),
    database.query<{ day: string; runs: number }>(
      `SELECT day, SUM(runs)::integer AS runs FROM usage_ledger WHERE ${counted}
       GROUP BY day ORDER BY day`,
      window
    ),
    database.query<{ value: boolean }>("SELECT value FROM gateway_switches WHERE name = 'paused'"),
    database.query<{ scope: string; subject: string; period: string; runs: number; name: string }>(
      `SELECT counter.scope, counter.subject, counter.period, counter.runs,
              COALESCE((SELECT user_name FROM usage_ledger
                        WHERE counter.scope = 'user' AND user_id = counter.subject
                        ORDER BY id DESC LIMIT 1), counter.subject) AS name
       FROM budget_counters AS counter WHERE period IN ($1, $2)`,
      [periods.day, periods.month]
    ),
  ]);
  const remaining: UsageReport["budgets"] = [];
  for (const counter of counters) {
    const scope = counter.scope as "user" | "group" | "global";
    const limit =
      scope === "global"
        ? budgets.global
        : scope === "group"
          ? budgets.groups?.[counter.subject]
          : (budgets.users?.[counter.name] ??
            budgets.users?.[counter.subject] ??
            budgets.users?.default);
    const period = counter.period === periods.day ? "day" : "month";
    const allowed = period === "day" ? limit?.perDay : limit?.perMonth;
    if (allowed === undefined) continue;
    remaining.push({
      scope,
      subject: scope === "user" ? counter.name : counter.subject,
      period,
      limit: allowed,
      used: counter.runs,
      remaining: Math.max(0, allowed - counter.runs),
    });
  }
  remaining.sort(
    (a, b) =>
      a.scope.localeCompare(b.scope) ||
      a.subject.localeCompare(b.subject) ||
      a.period.localeCompare(b.period)
  );
  return {
    from,
    to,
    paused: paused[0]?.value ?? false,
    byUser,
    byGroup,
    bySpell,
    byDay,
    budgets: remaining,
  };
}
