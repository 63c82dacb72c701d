/**
 * How soon a bulk's end is seen, and at what cost in polls: the pace schedule (the default,
 * `poll.bulkSchedule: "pace"`) against the doubling schedule of earlier versions ("fixed", the
 * baseline), in the same run, against the emulator (its own process, time scale 1, 50 runs of a
 * group at a time) at three sizes and paces. The service's end is what a second client sees
 * polling every 10 ms; the delay is when the measured client's bulk said `done` after that.
 * Goal: delay within max(300 ms, 10 % of the bulk's time), at most 8 polls per group.
 *
 * `npm run bench -- bulkFinish`
 */
import { filter, firstValueFrom, tap } from "rxjs";
import { SpellClient, type BulkSnapshot, type SpellLogEvent } from "../src/index.js";
import { startEmulatorProcess, type Connection } from "./startEmulatorProcess.js";

interface Scenario {
  name: string;
  rows: number;
  /** Each run's time at the emulator (spread ±20 % by row). */
  runMs: number;
}

const SCENARIOS: Scenario[] = [
  { name: "200 rows, 300 ms runs", rows: 200, runMs: 300 },
  { name: "2,000 rows, 230 ms runs", rows: 2000, runMs: 230 },
  { name: "5,000 rows, 600 ms runs", rows: 5000, runMs: 600 },
];
const REPEATS = Number(process.env.REPEATS ?? 2);

interface Measure {
  endMs: number;
  seenMs: number;
  delayMs: number;
  maxPolls: number;
  meanPolls: number;
}

async function measure(
  connection: Connection,
  scenario: Scenario,
  schedule: "pace" | "fixed",
  salt: number
): Promise<Measure> {
  const polls = new Map<string, number>();
  const logger = (event: SpellLogEvent) => {
    if (event.type === "request" && event.endpoint === "getBulkRuns") {
      const group = event.groupId ?? event.url;
      polls.set(group, (polls.get(group) ?? 0) + 1);
    }
  };
  const client = new SpellClient({ ...connection, logger, poll: { bulkSchedule: schedule } });
  const oracle = new SpellClient({
    ...connection,
    poll: {
      initialDelayMs: 10,
      intervalMs: 10,
      growth: 1,
      maxIntervalMs: 10,
      bulkSchedule: "fixed",
    },
  });
  // Distinct inputs per measure (salt), so that nothing is shared between runs.
  const inputs = Array.from({ length: scenario.rows }, (_, row) => ({
    ms: scenario.runMs,
    row: `${salt}-${row}`,
  }));
  const t0 = performance.now();
  let oracleDone: Promise<number> | undefined;
  const seen = await firstValueFrom(
    client.bulk("sleep", inputs).pipe(
      tap((snapshot: BulkSnapshot) => {
        const { groupIds, chunkSizes } = snapshot.resume;
        if (oracleDone === undefined && groupIds.length === chunkSizes.length) {
          oracleDone = firstValueFrom(
            oracle.resumeBulk(snapshot.resume, scenario.rows).pipe(filter((each) => each.done))
          ).then(() => performance.now() - t0);
        }
      }),
      filter((snapshot) => snapshot.done)
    )
  ).then(() => performance.now() - t0);
  const endMs = await (oracleDone as Promise<number>);
  const counts = [...polls.values()];
  return {
    endMs,
    seenMs: seen,
    delayMs: seen - endMs,
    maxPolls: Math.max(...counts),
    meanPolls: counts.reduce((a, b) => a + b, 0) / counts.length,
  };
}

async function main(): Promise<void> {
  const { connection, child } = await startEmulatorProcess({ timeScale: 1 });
  try {
    console.log(
      "| bulk | schedule | service end (ms) | seen (ms) | delay (ms) | goal (ms) | polls/group (max, mean) |"
    );
    console.log("|---|---|---:|---:|---:|---:|---:|");
    let salt = 0;
    let met = true;
    for (const scenario of SCENARIOS) {
      for (const schedule of ["fixed", "pace"] as const) {
        for (let repeat = 0; repeat < REPEATS; repeat++) {
          const m = await measure(connection, scenario, schedule, salt++);
          const goal = Math.max(300, 0.1 * m.endMs);
          if (schedule === "pace" && (m.delayMs > goal || m.maxPolls > 8)) met = false;
          console.log(
            `| ${scenario.name} | ${schedule === "fixed" ? "doubling (before)" : "pace (after)"} | ${Math.round(m.endMs)} | ${Math.round(m.seenMs)} | ${Math.round(m.delayMs)} | ${Math.round(goal)} | ${m.maxPolls}, ${m.meanPolls.toFixed(1)} |`
          );
        }
      }
    }
    console.log(
      `\npace schedule: ${met ? "every measure meets the goal" : "SOME MEASURE MISSES THE GOAL"}`
    );
  } finally {
    child.stdin?.end();
  }
}

void main();
