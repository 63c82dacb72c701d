import { DEFAULT_POLL, SpellClient } from "../src/index.js";
import type { Connection } from "./startEmulatorProcess.js";

/** Runs of the CPU comparison go this many at once. */
export const CPU_CONCURRENCY = 50;
/** Each run of the CPU comparison is a `sleep` of this long (polled). */
export const CPU_SPELL_MS = 600;

/**
 * The two clients of the core benchmark's CPU comparison (bench/core.ts, bench/cpuSide.ts): a
 * minimal hand-written fetch + setTimeout polling client, and SpellClient, each running `count`
 * polled `sleep` runs, `CPU_CONCURRENCY` at once.
 *
 * ## Example
 * ```ts
 * const ms = await cpuMs(() => clientBatch(connection, 150));
 * ```
 */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function baselineRun(
  connection: Connection,
  spellId: string,
  inputs: unknown
): Promise<unknown> {
  const headers = { Authorization: `Bearer ${connection.apiKey}`, Accept: "application/json" };
  const started = await fetch(`${connection.baseUrl}/spells/start`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ spellId, wait: false, inputs }),
  });
  const { runId } = (await started.json()) as { runId: string | number };
  let interval = DEFAULT_POLL.intervalMs;
  await sleep(DEFAULT_POLL.initialDelayMs);
  for (;;) {
    cpuPolls.baseline++;
    const url = `${connection.pollBaseUrl}/spells/getRun?runId=${encodeURIComponent(String(runId))}`;
    const answer = (await (await fetch(url, { headers })).json()) as {
      state: string;
      outputs: unknown;
    };
    if (answer.state !== "inProgress") return answer.outputs;
    await sleep(interval);
    interval = Math.min(interval * DEFAULT_POLL.growth, DEFAULT_POLL.maxIntervalMs);
  }
}

export async function baselineBatch(connection: Connection, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await baselineRun(connection, "sleep", { ms: CPU_SPELL_MS });
    }
  };
  await Promise.all(Array.from({ length: CPU_CONCURRENCY }, worker));
}

/** getRun requests of each side during the CPU rounds (the schedules differ: see the report). */
export const cpuPolls = { baseline: 0, client: 0 };
const pollCountingFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  if (String(input).includes("/getRun")) cpuPolls.client++;
  return fetch(input, init);
}) as typeof fetch;

export async function clientBatch(connection: Connection, count: number): Promise<void> {
  const client = new SpellClient({
    ...connection,
    maxInFlight: CPU_CONCURRENCY,
    fetch: pollCountingFetch,
  });
  await Promise.all(
    Array.from({ length: count }, () =>
      client.runOutputs("sleep", { ms: CPU_SPELL_MS }, { wait: false })
    )
  );
}

/** CPU milliseconds (user + system) the process spent while `batch` ran. */
export function cpuMs(batch: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  return batch().then(() => {
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  });
}
