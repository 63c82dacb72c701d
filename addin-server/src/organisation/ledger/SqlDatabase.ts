/**
 * The one SQL port of the ledger: PostgreSQL's dialect, spoken by PGlite (embedded, one folder)
 * and by a PostgreSQL server through `pg`. Three methods, so an adapter stays a few lines.
 *
 * ## Example
 * ```ts
 * const rows = await database.query<{ runs: number }>("SELECT runs FROM usage_ledger WHERE id = $1", [7]);
 * ```
 */
export interface SqlDatabase {
  /** Runs one statement with `$1`-style parameters and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, parameters?: unknown[]): Promise<Row[]>;
  /**
   * Runs `work` in one transaction (BEGIN … COMMIT, ROLLBACK when it throws) on one connection.
   * Row locks taken inside (`FOR UPDATE`, `ON CONFLICT DO UPDATE`) hold until it ends.
   */
  transaction<T>(work: (database: Pick<SqlDatabase, "query">) => Promise<T>): Promise<T>;
  /** Closes the connection(s). */
  close(): Promise<void>;
}
