// Runs the emulator in its own process for bench/core.ts and bench/cli.ts, so that the client's CPU and memory
// figures do not include the server's. Prints one JSON line with its addresses, then serves
// until its stdin closes (the parent exits or closes it).
import { startEmulator } from "../emulator/startEmulator.js";

async function main(): Promise<void> {
  const emulator = await startEmulator({
    timeScale: Number(process.env.TIME_SCALE ?? 1),
    // bench/cli.ts: a million runs must be forgotten soon after they end, as a service would.
    ...(process.env.TTL_MS ? { ttlMs: Number(process.env.TTL_MS) } : {}),
  });
  const { baseUrl, pollBaseUrl, apiKey } = emulator;
  process.stdout.write(`${JSON.stringify({ baseUrl, pollBaseUrl, apiKey })}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => void emulator.close().then(() => process.exit(0)));
}

void main();
