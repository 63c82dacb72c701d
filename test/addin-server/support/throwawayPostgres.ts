import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** A PostgreSQL server of its own for a spec: its URL, and `stop()` which deletes it. */
export interface ThrowawayPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * The folder of PostgreSQL's server programs (`initdb`, `pg_ctl`): on the PATH, else Debian's
 * `/usr/lib/postgresql/<version>/bin` (the `postgresql` package puts them there, off the PATH;
 * `.ci/run` installs it when missing), newest version first. Undefined when there is none.
 */
export function postgresBinaries(): string | undefined {
  for (const folder of (process.env.PATH ?? "").split(path.delimiter)) {
    if (
      folder &&
      existsSync(path.join(folder, "initdb")) &&
      existsSync(path.join(folder, "pg_ctl"))
    ) {
      return folder;
    }
  }
  const debian = "/usr/lib/postgresql";
  if (!existsSync(debian)) return undefined;
  const versions = readdirSync(debian)
    .filter((version) => existsSync(path.join(debian, version, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(debian, versions[0]!, "bin") : undefined;
}

/**
 * Makes and starts a PostgreSQL server in a new temporary folder, on a free loopback port, trust
 * authentication, user `spellrun`. `initdb` refuses to run as root, so as root the server runs
 * as the `postgres` user (Debian's package makes it), else as `nobody`, through `runuser`.
 *
 * @param binaries The folder of `initdb` and `pg_ctl` (`postgresBinaries()`).
 * @return The running server.
 */
export async function startThrowawayPostgres(binaries: string): Promise<ThrowawayPostgres> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "spellrun-pg-"));
  const dataDir = path.join(folder, "data");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  let owner: { uid: number; gid: number; name: string } | undefined;
  if (asRoot) {
    const name = userExists("postgres") ? "postgres" : "nobody";
    const uid = Number(execFileSync("id", ["-u", name]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", name]).toString().trim());
    owner = { uid, gid, name };
    chmodSync(folder, 0o700);
    chownSync(folder, uid, gid);
  }
  const run = (program: string, args: string[]) => {
    const command = path.join(binaries, program);
    if (owner)
      execFileSync("runuser", ["-u", owner.name, "--", command, ...args], { stdio: "pipe" });
    else execFileSync(command, args, { stdio: "pipe" });
  };
  run("initdb", ["-D", dataDir, "-A", "trust", "-U", "spellrun", "--no-sync", "-E", "UTF8"]);
  run("pg_ctl", [
    "-D",
    dataDir,
    "-l",
    path.join(folder, "server.log"),
    "-w",
    "-o",
    `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`,
    "start",
  ]);
  return {
    url: `postgres://spellrun@127.0.0.1:${port}/postgres`,
    stop: async () => {
      try {
        run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

function userExists(name: string): boolean {
  try {
    execFileSync("id", ["-u", name], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
