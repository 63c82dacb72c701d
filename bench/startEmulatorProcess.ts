import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

/** Where a benchmark's emulator listens, and its key. */
export interface Connection {
  baseUrl: string;
  pollBaseUrl: string;
  apiKey: string;
}

/**
 * Starts the emulator in its own process (bench/coreEmulator.ts), so that a benchmark's CPU and
 * memory figures do not include the server's. Closing the child's stdin stops it.
 *
 * ## Example
 * ```ts
 * const { connection, child } = await startEmulatorProcess({ timeScale: 0.1 });
 * child.stdin?.end();
 * ```
 * @param options time scale (default 1) and TTL of finished runs (default the emulator's)
 * @return the addresses and the child process
 */
export async function startEmulatorProcess(
  options: { timeScale?: number; ttlMs?: number } = {}
): Promise<{ connection: Connection; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(__dirname, "coreEmulator.ts")], {
    stdio: ["pipe", "pipe", "inherit"],
    env: {
      ...process.env,
      TIME_SCALE: String(options.timeScale ?? 1),
      ...(options.ttlMs === undefined ? {} : { TTL_MS: String(options.ttlMs) }),
    },
  });
  const connection = await new Promise<Connection>((resolve, reject) => {
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes("\n")) resolve(JSON.parse(text.split("\n")[0]) as Connection);
    });
    child.on("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  return { connection, child };
}
