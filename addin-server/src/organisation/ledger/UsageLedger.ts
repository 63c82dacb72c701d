import type { Budgets, RunLimit } from "../budgets/Budgets";
import { budgetPeriods } from "../budgets/budgetPeriods";
import type { SignedInUser } from "../signIn/SignedInUser";
import type { BudgetRefusal, ChargeOutcome } from "./ChargeOutcome";
import type { SqlDatabase } from "./SqlDatabase";

/** A start or bulkStart about to be forwarded. */
export interface RunRequest {
  user: SignedInUser;
  endpoint: "start" | "bulkStart";
  spellId: string;
  /** 1 for a start, the number of inputs for a bulkStart. */
  runs: number;
  /** The client's key for this call, the same on its retries (`Idempotency-Key`). */
  requestKey?: string;
}

/** The kill switch's row in `gateway_switches`. */
const PAUSED = "paused";

/** Thrown inside the charge's transaction to roll it back. */
class Refused extends Error {
  constructor(
    readonly refusal: BudgetRefusal,
    /** The charge a repeated call repeats. */
    readonly repeatOf?: string
  ) {
    super(refusal.reason);
  }
}

/**
 * The usage ledger and the budgets' counters over one SQL database: charges runs before a call
 * is forwarded (atomically, with row locks, so instances sharing PostgreSQL never overspend),
 * records the service's answer, refunds a call that surely started nothing, and holds the kill
 * switch. Stores no key and no input.
 *
 * ## Example
 * ```ts
 * const ledger = new UsageLedger(database);
 * const outcome = await ledger.charge({ user, endpoint: "start", spellId, runs: 1 }, budgets);
 * ```
 */
export class UsageLedger {
  constructor(
    readonly database: SqlDatabase,
    private readonly clock: () => Date = () => new Date()
  ) {}

  /**
   * Charges the request's runs to the user, each of the user's groups and the whole
   * organisation, for today and this month, in one transaction: refused (nothing charged) when
   * the kill switch is on or any limit would be passed. A request key seen before for this user
   * is refused while its charge stands (neither charged nor sent again); after a refund it is
   * charged as a new call.
   *
   * @param request What is about to be forwarded.
   * @param budgets The limits in force.
   * @return Charged or refused.
   */
  charge(request: RunRequest, budgets: Budgets): Promise<ChargeOutcome> {
    const now = this.clock();
    const periods = budgetPeriods(now);
    return this.database
      .transaction(async (sql): Promise<ChargeOutcome> => {
        if (request.requestKey !== undefined) {
          const [seen] = await sql.query<{
            id: string;
            endpoint: string;
            spell_id: string;
            runs: number;
            refunded: boolean;
            replays: number;
          }>(
            `SELECT id::text, endpoint, spell_id, runs, refunded, replays FROM usage_ledger
             WHERE user_id = $1 AND request_key = $2 FOR UPDATE`,
            [request.user.id, request.requestKey]
          );
          if (seen) {
            const same =
              seen.endpoint === request.endpoint &&
              seen.spell_id === request.spellId &&
              seen.runs === request.runs;
            if (!same) throw new Refused({ reason: "requestKeyReused" });
            if (!seen.refunded) {
              // The call was forwarded and its charge stands: the service may have started it,
              // so it is not sent again (and not charged again). The add-in repeats a start only
              // after an answer that started nothing, which was refunded.
              throw new Refused({ reason: "alreadyStarted" }, seen.id);
            }
            // Refunded (the service started nothing): this attempt is charged as new.
            await sql.query("DELETE FROM usage_ledger WHERE id = $1", [seen.id]);
          }
        }
        if (budgets.paused) throw new Refused({ reason: "paused" });
        const limits = limitsOf(request.user, budgets);
        const keys = counterKeys(request.user, periods);
        // One statement (one round trip): raises every counter, locking its row until the
        // transaction ends (sorted, so two charges lock in the same order and cannot deadlock),
        // writes the ledger's row and reads the kill switch. Over a limit or paused: rolled back.
        const totals = await sql.query<{
          scope: string;
          subject: string;
          period: string;
          runs: number;
          id: string;
          paused: boolean;
        }>(
          `WITH raised AS (
             INSERT INTO budget_counters (scope, subject, period, runs)
             SELECT scope, subject, period, $4::integer
             FROM unnest($1::text[], $2::text[], $3::text[]) AS counter (scope, subject, period)
             ORDER BY scope, subject, period
             ON CONFLICT (scope, subject, period)
               DO UPDATE SET runs = budget_counters.runs + EXCLUDED.runs
             RETURNING scope, subject, period, runs
           ), entry AS (
             INSERT INTO usage_ledger
               (started_at, day, month, user_id, user_name, groups, endpoint, spell_id, runs, request_key)
             VALUES ($5, $6, $7, $8, $9, $10, $11, $12, $4, $13) RETURNING id::text AS id
           )
           SELECT raised.scope, raised.subject, raised.period, raised.runs, entry.id,
                  COALESCE((SELECT value FROM gateway_switches WHERE name = '${PAUSED}'), false) AS paused
           FROM raised CROSS JOIN entry`,
          [
            keys.map((key) => key.scope),
            keys.map((key) => key.subject),
            keys.map((key) => key.period),
            request.runs,
            now,
            periods.day,
            periods.month,
            request.user.id,
            request.user.name,
            [...request.user.groups],
            request.endpoint,
            request.spellId,
            request.requestKey ?? null,
          ]
        );
        if (totals[0]?.paused) throw new Refused({ reason: "paused" });
        for (const total of totals) {
          const scope = total.scope as "user" | "group" | "global";
          const limit = limits.get(`${scope}\u0000${total.subject}`);
          const daily = total.period.length === 10;
          const allowed = daily ? limit?.perDay : limit?.perMonth;
          if (allowed !== undefined && total.runs > allowed) {
            throw new Refused({
              reason: "limit",
              scope,
              subject: total.subject,
              period: daily ? "day" : "month",
              limit: allowed,
              used: total.runs - request.runs,
              resetsAt: daily ? periods.dayResetsAt : periods.monthResetsAt,
            });
          }
        }
        return { kind: "charged", ledgerId: totals[0]!.id };
      })
      .catch(async (error: unknown): Promise<ChargeOutcome> => {
        if (!(error instanceof Refused)) throw error;
        // Counted after the rollback: how often a call came back while its charge stood.
        if (error.repeatOf !== undefined) {
          await this.database.query("UPDATE usage_ledger SET replays = replays + 1 WHERE id = $1", [
            error.repeatOf,
          ]);
        }
        return { kind: "refused", refusal: error.refusal };
      });
  }

  /**
   * Records the service's answer to a charged call: its status and the run or bulk run id.
   *
   * @param ledgerId The charge's row.
   * @param status The answer's status.
   * @param runId The run id (start) or bulk run id (bulkStart) the answer named, if any.
   */
  async settle(ledgerId: string, status: number, runId: string | undefined): Promise<void> {
    await this.database.query(
      "UPDATE usage_ledger SET status = $2, run_id = COALESCE($3, run_id) WHERE id = $1",
      [ledgerId, status, runId ?? null]
    );
  }

  /**
   * Gives a charge back when the service surely started nothing (it refused the call, or nothing
   * reached it): the counters go down by its runs, the row stays, marked refunded. Once only.
   *
   * @param ledgerId The charge's row.
   * @param status The answer's status.
   */
  async refund(ledgerId: string, status: number): Promise<void> {
    await this.database.transaction(async (sql) => {
      const [row] = await sql.query<{
        user_id: string;
        groups: string[];
        runs: number;
        day: string;
        month: string;
      }>(
        `UPDATE usage_ledger SET refunded = true, status = $2
         WHERE id = $1 AND NOT refunded RETURNING user_id, groups, runs, day, month`,
        [ledgerId, status]
      );
      if (!row) return;
      const keys = counterKeys(
        { id: row.user_id, name: row.user_id, groups: row.groups },
        { day: row.day, month: row.month }
      );
      await sql.query(
        `UPDATE budget_counters SET runs = runs - $4
         WHERE (scope, subject, period) IN
           (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))`,
        [
          keys.map((key) => key.scope),
          keys.map((key) => key.subject),
          keys.map((key) => key.period),
          row.runs,
        ]
      );
    });
  }

  /** Whether the admin page's kill switch is on. */
  async paused(): Promise<boolean> {
    return this.pausedIn(this.database);
  }

  /**
   * Turns the kill switch on or off for every instance sharing the database.
   *
   * @param paused On (refuse every start) or off.
   * @param by Who switched it (the admin's name), kept with it.
   */
  async setPaused(paused: boolean, by: string): Promise<void> {
    await this.database.query(
      `INSERT INTO gateway_switches (name, value, changed_at, changed_by) VALUES ($1, $2, now(), $3)
       ON CONFLICT (name) DO UPDATE SET value = $2, changed_at = now(), changed_by = $3`,
      [PAUSED, paused, by]
    );
  }

  /**
   * Deletes ledger rows older than the retention, and counters of months before it.
   *
   * @param retentionDays How many days of rows to keep.
   * @return The number of ledger rows deleted.
   */
  async prune(retentionDays: number): Promise<number> {
    const cutoff = new Date(this.clock().getTime() - retentionDays * 86_400_000);
    const deleted = await this.database.query(
      "DELETE FROM usage_ledger WHERE started_at < $1 RETURNING id",
      [cutoff]
    );
    const cutoffMonth = budgetPeriods(cutoff).month;
    await this.database.query("DELETE FROM budget_counters WHERE substr(period, 1, 7) < $1", [
      cutoffMonth,
    ]);
    return deleted.length;
  }

  private async pausedIn(sql: Pick<SqlDatabase, "query">): Promise<boolean> {
    const [row] = await sql.query<{ value: boolean }>(
      "SELECT value FROM gateway_switches WHERE name = $1",
      [PAUSED]
    );
    return row?.value ?? false;
  }
}

/** The counters a user's runs count on: user, each group, global; day and month. */
function counterKeys(
  user: SignedInUser,
  periods: { day: string; month: string }
): { scope: string; subject: string; period: string }[] {
  const subjects = [
    { scope: "global", subject: "" },
    { scope: "user", subject: user.id },
    ...[...new Set(user.groups)].map((group) => ({ scope: "group", subject: group })),
  ];
  return subjects.flatMap((subject) => [
    { ...subject, period: periods.day },
    { ...subject, period: periods.month },
  ]);
}

/** The limits that apply to a user's runs, by `scope\0subject` as the counters name them. */
export function limitsOf(user: SignedInUser, budgets: Budgets): Map<string, RunLimit> {
  const limits = new Map<string, RunLimit>();
  if (budgets.global) limits.set("global\u0000", budgets.global);
  const own = budgets.users?.[user.name] ?? budgets.users?.[user.id] ?? budgets.users?.default;
  if (own) limits.set(`user\u0000${user.id}`, own);
  for (const group of user.groups) {
    const limit = budgets.groups?.[group];
    if (limit) limits.set(`group\u0000${group}`, limit);
  }
  return limits;
}
