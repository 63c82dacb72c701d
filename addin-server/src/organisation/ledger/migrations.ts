import type { SqlDatabase } from "./SqlDatabase";

/**
 * The ledger's schema, one numbered step each, applied in order at start and never edited once
 * released (a change is a new step). PostgreSQL's dialect, which PGlite speaks too.
 */
const MIGRATIONS: readonly { version: number; statements: readonly string[] }[] = [
  {
    version: 1,
    statements: [
      // One row per start or bulkStart the gateway let through: who, when, which spell, how many
      // runs. Never the key, never the inputs.
      `CREATE TABLE usage_ledger (
        id bigserial PRIMARY KEY,
        started_at timestamptz NOT NULL DEFAULT now(),
        day text NOT NULL,
        month text NOT NULL,
        user_id text NOT NULL,
        user_name text NOT NULL,
        groups text[] NOT NULL DEFAULT '{}',
        endpoint text NOT NULL,
        spell_id text NOT NULL,
        runs integer NOT NULL,
        request_key text,
        status integer,
        run_id text,
        refunded boolean NOT NULL DEFAULT false,
        replays integer NOT NULL DEFAULT 0
      )`,
      `CREATE UNIQUE INDEX usage_ledger_request ON usage_ledger (user_id, request_key)`,
      `CREATE INDEX usage_ledger_started_at ON usage_ledger (started_at)`,
      // The budgets' running totals, one row per (user | group | global, subject, day | month):
      // locked while a charge checks and raises them, so instances sharing the database cannot
      // both spend the last runs.
      `CREATE TABLE budget_counters (
        scope text NOT NULL,
        subject text NOT NULL,
        period text NOT NULL,
        runs integer NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, subject, period)
      )`,
      // Switches every instance reads at each charge (the admin page's kill switch).
      `CREATE TABLE gateway_switches (
        name text PRIMARY KEY,
        value boolean NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT now(),
        changed_by text NOT NULL
      )`,
    ],
  },
];

/** Any fixed number: the advisory lock under which one instance migrates while others wait. */
const MIGRATION_LOCK = 20_261_127;

/**
 * Brings the database's schema up to date: applies each step of `MIGRATIONS` not yet recorded in
 * `ledger_migrations`, in order, in one transaction, under an advisory lock so that
 * instances starting together migrate once.
 *
 * ## Example
 * ```ts
 * await migrate(await openDatabase(location));
 * ```
 *
 * @param database The ledger's database.
 * @return The versions applied now (empty when it was up to date).
 */
export async function migrate(database: SqlDatabase): Promise<number[]> {
  return database.transaction(async (transaction) => {
    await transaction.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await transaction.query(
      `CREATE TABLE IF NOT EXISTS ledger_migrations (
        version integer PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`
    );
    const done = new Set(
      (await transaction.query<{ version: number }>("SELECT version FROM ledger_migrations")).map(
        (row) => row.version
      )
    );
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.statements) await transaction.query(statement);
      await transaction.query("INSERT INTO ledger_migrations (version) VALUES ($1)", [
        migration.version,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}
