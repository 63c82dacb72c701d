/**
 * One side of the core benchmark's CPU comparison alone in its process (started by bench/core.ts):
 * `node --import tsx bench/cpuSide.ts <baseline|client> <runs>` with the emulator's connection as
 * JSON in `SPELLRUN_BENCH_CONNECTION`. Warms up with `CPU_CONCURRENCY` runs, then prints one JSON
 * line: CPU ms per run and getRun requests per run. No forced GC: each side pays for its own
 * garbage as it goes, as it would alone in an app.
 */
import { baselineBatch, clientBatch, cpuMs, cpuPolls, CPU_CONCURRENCY } from "./cpuClients.js";
import type { Connection } from "./startEmulatorProcess.js";

async function main(): Promise<void> {
  const side = process.argv[2] === "client" ? "client" : "baseline";
  const runs = Number(process.argv[3] ?? 600);
  const connection = JSON.parse(process.env.SPELLRUN_BENCH_CONNECTION ?? "{}") as Connection;
  const batch = side === "client" ? clientBatch : baselineBatch;
  await batch(connection, CPU_CONCURRENCY);
  cpuPolls[side] = 0;
  const ms = await cpuMs(() => batch(connection, runs));
  console.log(JSON.stringify({ side, perRun: ms / runs, polls: cpuPolls[side] / runs }));
}

void main();
