import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  const releaseFolder = inMemory ? () => undefined : claimFolder(dataDir);
  let database: InstanceType<typeof PGlite>;
  try {
    database = await PGlite.create(dataDir);
  } catch (error) {
    releaseFolder();
    throw error;
  }
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
    close: async () => {
      await database.close();
      releaseFolder();
    },
  };
}

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it.
 * A lock file naming the process keeps a second one out (a stale file of a dead process is taken
 * over).
 */
function claimFolder(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lock = path.join(dataDir, "spellrun.lock");
  try {
    const holder = Number(readFileSync(lock, "utf8"));
    if (Number.isInteger(holder) && holder !== process.pid && processIsAlive(holder)) {
      throw new Error(
        `${dataDir} is in use by process ${holder} (the embedded ledger serves one process): ` +
          "use the running server's /admin page, or stop it first."
      );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  writeFileSync(lock, String(process.pid));
  return () => rmSync(lock, { force: true });
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
