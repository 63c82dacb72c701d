/**
 * `npm run bench -- inFlight`: what `maxInFlight` costs. 2,000 runs of the emulator's `echo`
 * spell (one client each row, emulator in its own process at time scale 1), wall time:
 * - polling mode with a slot held for a whole run (how maxInFlight 8 worked before: the same
 *   as `maxRunsInProgress: 8` today), the baseline;
 * - polling mode with today's defaults (maxInFlight 8 counts requests, maxRunsInProgress 64);
 * - wait mode with today's defaults (one request per run).
 * Prints each with its ratio to the baseline and the requests sent.
 */
import { SpellClient, type SpellClientOptions } from "../src/index.js";
import { startEmulatorProcess, type Connection } from "./startEmulatorProcess.js";

const RUNS = Number(process.env.BENCH_IN_FLIGHT_RUNS ?? 2000);

async function timeRuns(
  connection: Connection,
  options: Partial<SpellClientOptions>,
  wait: boolean
): Promise<{ ms: number; requests: number }> {
  let requests = 0;
  const client = new SpellClient({
    ...connection,
    ...options,
    fetch: (input, init) => {
      requests++;
      return fetch(input, init);
    },
  });
  const began = performance.now();
  await Promise.all(
    Array.from({ length: RUNS }, (_, i) => client.runOutputs("echo", { i }, { wait }))
  );
  return { ms: performance.now() - began, requests };
}

async function main(): Promise<void> {
  const { connection, child } = await startEmulatorProcess({ timeScale: 1 });
  try {
    // Warm-up (connections, JIT), not measured.
    await timeRuns(connection, {}, true);
    const rows: Array<[string, Partial<SpellClientOptions>, boolean]> = [
      ["polling, a slot per run (before: maxRunsInProgress 8)", { maxRunsInProgress: 8 }, false],
      ["polling, defaults (maxInFlight 8 requests, 64 runs)", {}, false],
      ["wait mode, defaults", {}, true],
    ];
    console.log(`\nmaxInFlight: ${RUNS} runs of echo against the emulator (time scale 1)\n`);
    console.log("| row | wall s | ratio to baseline | requests |");
    console.log("|---|---|---|---|");
    let baseline = 0;
    for (const [name, options, wait] of rows) {
      const { ms, requests } = await timeRuns(connection, options, wait);
      baseline ||= ms;
      console.log(
        `| ${name} | ${(ms / 1000).toFixed(1)} | ${(ms / baseline).toFixed(3)} | ${requests} |`
      );
    }
  } finally {
    child.stdin?.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
