// Benchmarks of the RxJS core against the emulator (run: `npx tsx bench/core.ts`).
//
// 1. Client CPU per run: SpellClient vs a minimal hand-written fetch + setTimeout polling client
//    (same emulator, same runs, same poll schedule, alternating rounds). Goal: ratio ≤ 1.1.
// 2. Polls per run and the delay between a run's end and its observed end, for sleep runs of
//    1 s, 10 s and 60 s (and a few lengths in between) at time scale 1, all at once.
//    Goal: delay ≤ max(300 ms, 10 % of the run); ≤ 15 polls for 60 s.
// 3. A 10,000-input bulk (echo): wall time, requests, peak memory increase. Goal: ≤ 50 MB.
// The emulator runs in a child process so that only the client is measured.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { lastValueFrom } from "rxjs";
import { SpellClient, DEFAULT_POLL } from "../src/index.js";

interface Connection {
  baseUrl: string;
  pollBaseUrl: string;
  apiKey: string;
}

const CPU_RUNS_PER_ROUND = 150;
const CPU_ROUNDS = 6;
const CPU_CONCURRENCY = 50;
const CPU_SPELL_MS = 600;
const RUN_LENGTHS_MS = [1000, 3000, 10_000, 20_000, 60_000];
const BULK_SIZE = 10_000;

async function startEmulatorProcess(): Promise<{ connection: Connection; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(__dirname, "coreEmulator.ts")], {
    stdio: ["pipe", "pipe", "inherit"],
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

/** A fetch that counts requests per endpoint, and getRun polls per run id. */
function countingFetch() {
  const requests: Record<string, number> = {};
  const pollsByRun = new Map<string, number>();
  const fetchFn = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const endpoint = url.pathname.split("/").pop() as string;
    requests[endpoint] = (requests[endpoint] ?? 0) + 1;
    if (endpoint === "getRun") {
      const runId = url.searchParams.get("runId") as string;
      pollsByRun.set(runId, (pollsByRun.get(runId) ?? 0) + 1);
    }
    return fetch(input, init);
  }) as typeof fetch;
  return { fetchFn, requests, pollsByRun };
}

// --- the baseline: what a careful developer writes by hand in a few lines -----------------

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

async function baselineBatch(connection: Connection, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await baselineRun(connection, "sleep", { ms: CPU_SPELL_MS });
    }
  };
  await Promise.all(Array.from({ length: CPU_CONCURRENCY }, worker));
}

async function clientBatch(connection: Connection, count: number): Promise<void> {
  const client = new SpellClient({ ...connection, maxInFlight: CPU_CONCURRENCY });
  await Promise.all(
    Array.from({ length: count }, () =>
      client.runOutputs("sleep", { ms: CPU_SPELL_MS }, { wait: false })
    )
  );
}

function cpuMs(batch: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  return batch().then(() => {
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  });
}

async function measureCpu(connection: Connection) {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Warm both paths up (JIT, sockets) before measuring.
  await baselineBatch(connection, CPU_CONCURRENCY);
  await clientBatch(connection, CPU_CONCURRENCY);
  let baseline = 0;
  let client = 0;
  const ratios: number[] = [];
  for (let round = 0; round < CPU_ROUNDS; round++) {
    // Alternate the order, and collect garbage first, so neither side pays the other's debts.
    const measure = async (batch: () => Promise<void>) => {
      gc?.();
      return cpuMs(batch);
    };
    const baselineFirst = round % 2 === 0;
    const first = await measure(() =>
      baselineFirst
        ? baselineBatch(connection, CPU_RUNS_PER_ROUND)
        : clientBatch(connection, CPU_RUNS_PER_ROUND)
    );
    const second = await measure(() =>
      baselineFirst
        ? clientBatch(connection, CPU_RUNS_PER_ROUND)
        : baselineBatch(connection, CPU_RUNS_PER_ROUND)
    );
    const [roundBaseline, roundClient] = baselineFirst ? [first, second] : [second, first];
    baseline += roundBaseline;
    client += roundClient;
    ratios.push(roundClient / roundBaseline);
  }
  const runs = CPU_RUNS_PER_ROUND * CPU_ROUNDS;
  ratios.sort((a, b) => a - b);
  const median = (ratios[(ratios.length - 1) >> 1] + ratios[ratios.length >> 1]) / 2;
  return { baselinePerRun: baseline / runs, clientPerRun: client / runs, runs, median, ratios };
}

// --- poll timing ------------------------------------------------------------------------------

async function measurePollTiming(connection: Connection) {
  const counting = countingFetch();
  const client = new SpellClient({ ...connection, fetch: counting.fetchFn });
  return Promise.all(
    RUN_LENGTHS_MS.map(async (ms) => {
      const started = performance.now();
      let runId: string | number | undefined;
      await lastValueFrom(client.run("sleep", { ms }, { wait: false })).then(
        (snapshot) => (runId = snapshot.runId)
      );
      const delay = performance.now() - started - ms;
      const polls = counting.pollsByRun.get(String(runId)) ?? 0;
      const goalMs = Math.max(300, ms * 0.1);
      return { ms, delay, polls, goalMs };
    })
  );
}

// --- big bulk -------------------------------------------------------------------------------

async function measureBulk(connection: Connection, maxInFlight: number) {
  const counting = countingFetch();
  const client = new SpellClient({ ...connection, fetch: counting.fetchFn, maxInFlight });
  const inputs = Array.from({ length: BULK_SIZE }, (_, index) => ({ index }));
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  }, 5);
  const started = performance.now();
  let snapshots = 0;
  const rows = await new Promise<number>((resolve, reject) => {
    let last = 0;
    client.bulk("echo", inputs).subscribe({
      next: (snapshot) => {
        snapshots++;
        last = snapshot.runs.filter((run, index) => run.outputs.index === index).length;
      },
      error: reject,
      complete: () => resolve(last),
    });
  });
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  const requests = Object.values(counting.requests).reduce((sum, count) => sum + count, 0);
  return {
    maxInFlight,
    wallMs,
    rows,
    snapshots,
    requests,
    requestsByEndpoint: counting.requests,
    heapIncreaseMb: (peakHeap - before.heapUsed) / 2 ** 20,
    rssIncreaseMb: (peakRss - before.rss) / 2 ** 20,
  };
}

// --- report ---------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { connection, child } = await startEmulatorProcess();
  try {
    // The timing runs take a minute; the CPU rounds run meanwhile (their polls are negligible).
    // BENCH_ONLY=cpu skips the timing and bulk sections (for quick iterations on CPU).
    const cpuOnly = process.env.BENCH_ONLY === "cpu";
    const timing = cpuOnly ? Promise.resolve([]) : measurePollTiming(connection);
    const cpu = await measureCpu(connection);
    const timed = await timing;
    // Default limit (8 chunks in flight), then 20 (all chunks at once) to show that the wall time
    // is the emulator's throughput (50 runs at a time per group), not the client's.
    const bulks = cpuOnly
      ? []
      : [await measureBulk(connection, 8), await measureBulk(connection, 20)];

    const ratio = cpu.clientPerRun / cpu.baselinePerRun;
    const spread = `${cpu.ratios[0].toFixed(2)}–${cpu.ratios[cpu.ratios.length - 1].toFixed(2)}`;
    console.log(
      "\nClient CPU per run (sleep 600 ms, polling, %d runs each, %d at once)",
      cpu.runs,
      CPU_CONCURRENCY
    );
    console.table([
      { client: "hand-written fetch + setTimeout", "CPU ms/run": cpu.baselinePerRun.toFixed(3) },
      { client: "SpellClient (RxJS)", "CPU ms/run": cpu.clientPerRun.toFixed(3) },
      {
        client: "ratio of totals (goal ≤ 1.10)",
        "CPU ms/run": `${ratio.toFixed(2)}× ${ratio <= 1.1 ? "OK" : "MISSED"}`,
      },
      {
        client: `median of ${CPU_ROUNDS} round ratios (range ${spread})`,
        "CPU ms/run": `${cpu.median.toFixed(2)}×`,
      },
    ]);

    console.log("Observed end of polled runs (default poll schedule %j)", DEFAULT_POLL);
    console.table(
      timed.map((row) => ({
        "run (s)": row.ms / 1000,
        "delay (ms)": Math.round(row.delay),
        "goal (ms)": row.goalMs,
        polls: row.polls,
        verdict:
          row.delay <= row.goalMs && (row.ms !== 60_000 || row.polls <= 15) ? "OK" : "MISSED",
      }))
    );

    console.log("Bulk of %d echo runs (chunks of 500)", BULK_SIZE);
    console.table(
      bulks.map((bulk) => ({
        maxInFlight: bulk.maxInFlight,
        "wall (s)": (bulk.wallMs / 1000).toFixed(2),
        "rows mapped": bulk.rows,
        snapshots: bulk.snapshots,
        requests: bulk.requests,
        bulkStart: bulk.requestsByEndpoint.bulkStart,
        getBulkRuns: bulk.requestsByEndpoint.getBulkRuns,
        "heap +MB": bulk.heapIncreaseMb.toFixed(1),
        "rss +MB": bulk.rssIncreaseMb.toFixed(1),
        "goal ≤ 50 MB": bulk.heapIncreaseMb <= 50 && bulk.rssIncreaseMb <= 50 ? "OK" : "MISSED",
      }))
    );
  } finally {
    child.stdin?.end();
  }
}

void main();
