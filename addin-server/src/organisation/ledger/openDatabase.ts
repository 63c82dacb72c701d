import { mkdirSync } from "node:fs";
import path from "node:path";
import type { SqlDatabase } from "./SqlDatabase";

/**
 * Opens the ledger's database named by `location`: a `postgres://` or `postgresql://` URL is a
 * PostgreSQL server shared by every instance (through `pg`, a pool); anything else is a folder
 * for the embedded PGlite (one instance, zero setup; the folder is made when missing), or
 * `memory://` for a PGlite that lives as long as the process.
 *
 * ## Example
 * ```ts
 * const database = await openDatabase("postgres://spellrun@db.internal/spellrun");
 * const embedded = await openDatabase("/var/lib/spellrun/ledger");
 * ```
 *
 * @param location A PostgreSQL URL or a folder.
 * @return The open database.
 */
export async function openDatabase(location: string): Promise<SqlDatabase> {
  return /^postgres(ql)?:\/\//i.test(location) ? openPostgres(location) : openPglite(location);
}

async function openPostgres(url: string): Promise<SqlDatabase> {
  const { Pool } = await import("pg");
  const pool = new Pool({ connectionString: url, max: 10 });
  // An idle connection the server drops must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  return {
    query: async <Row>(sql: string, parameters: unknown[] = []) =>
      (await pool.query(sql, parameters)).rows as Row[],
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work({
          query: async <Row>(sql: string, parameters: unknown[] = []) =>
            (await client.query(sql, parameters)).rows as Row[],
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

async function openPglite(folder: string): Promise<SqlDatabase> {
  const { PGlite } = await import("@electric-sql/pglite");
  // "memory://": a database that lives as long as the process (specs, benches).
  const inMemory = folder === "memory://";
  const dataDir = inMemory ? folder : path.resolve(folder);
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const database = await PGlite.create(dataDir);
  return {
    query: async <Row>(sql: string, parameters: unknown[] = []) =>
      (await database.query<Row>(sql, parameters)).rows,
    transaction: (work) =>
      database.transaction((transaction) =>
        work({
          query: async <Row>(sql: string, parameters: unknown[] = []) =>
            (await transaction.query<Row>(sql, parameters)).rows,
        })
      ),
    close: () => database.close(),
  };
}
