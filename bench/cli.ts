// Benchmark of the `spellrun` command line (issue 11; run: `npm run bench -- cli`).
//
// A CSV of BENCH_CLI_ROWS rows (default 1,000,000) goes through `spellrun bulk echo` (the built
// bin, plain node, as users run it) against the emulator in its own process (time scale 0.001,
// finished groups forgotten after 20 s). Reported: the CLI's peak RSS (goal ≤ 200 MB, flat in the
// row count), wall time, requests per endpoint, the emulator's peak RSS, and the ratio of the
// CLI's wall time to the same rows, windows and concurrency through `client.bulk` in-process
// (rows already in memory, no file, no journal): the baseline, measured in the same run.
import { spawn, spawnSync } from "node:child_process";
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse";
import { bufferCount, from, last, lastValueFrom, mergeMap } from "rxjs";
import { SpellClient } from "../src/index.js";
import { startEmulatorProcess, type Connection } from "./startEmulatorProcess.js";

const ROWS = Number(process.env.BENCH_CLI_ROWS ?? 1_000_000);
const CHUNK_SIZE = 1000;
const MAX_IN_FLIGHT = 16;
const TIME_SCALE = 0.001;
const ROOT = path.join(__dirname, "..");
const BIN = path.join(ROOT, "cli", "dist", "cli", "main.js");

async function writeInput(file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = (text: string) =>
    out.write(text)
      ? Promise.resolve()
      : new Promise<void>((resolve) => out.once("drain", resolve));
  await write("id,text\n");
  let batch = "";
  for (let i = 0; i < ROWS; i++) {
    batch += `${i},Row ${i} of the benchmark. It has two sentences.\n`;
    if (batch.length > 1 << 16) {
      await write(batch);
      batch = "";
    }
  }
  await write(batch);
  await new Promise<void>((resolve) => out.end(resolve));
}

/** Peak resident set of a process, from /proc (VmHWM), sampled until it exits. */
function watchPeakRss(pid: number): { peakMb(): number; stop(): void } {
  let peakKb = 0;
  const sample = () => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    } catch {
      // The process has exited; the last sample stands.
    }
  };
  const timer = setInterval(sample, 50);
  sample();
  return { peakMb: () => peakKb / 1024, stop: () => clearInterval(timer) };
}

async function emulatorStats(
  connection: Connection
): Promise<{ requests: Record<string, number>; bulkRunsCreated: number }> {
  const response = await fetch(`${connection.baseUrl}/_emulator/stats`, {
    headers: { authorization: `Bearer ${connection.apiKey}` },
  });
  return (await response.json()) as { requests: Record<string, number>; bulkRunsCreated: number };
}

async function resetEmulator(connection: Connection): Promise<void> {
  await fetch(`${connection.baseUrl}/_emulator/reset`, {
    method: "POST",
    headers: { authorization: `Bearer ${connection.apiKey}`, "content-type": "application/json" },
    body: "{}",
  });
}

async function runCli(connection: Connection, input: string, output: string) {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      BIN,
      "bulk",
      "echo",
      input,
      "-o",
      output,
      "--quiet",
      "--chunk-size",
      String(CHUNK_SIZE),
      "--max-in-flight",
      String(MAX_IN_FLIGHT),
      // Every row is a new run: the default budget (1,000) would refuse the job.
      "--max-runs",
      String(ROWS),
    ],
    {
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        PATH: process.env.PATH,
        SPELL_API_KEY: connection.apiKey,
        SPELL_BASE_URL: connection.baseUrl,
        SPELL_POLL_BASE_URL: connection.pollBaseUrl,
      },
    }
  );
  const rss = watchPeakRss(child.pid as number);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  rss.stop();
  return { code, wallMs: Date.now() - started, peakRssMb: rss.peakMb() };
}

async function runInProcess(connection: Connection, input: string) {
  const rows: Record<string, string>[] = [];
  for await (const record of createReadStream(input).pipe(
    parse({ columns: true })
  ) as AsyncIterable<Record<string, string>>) {
    rows.push(record);
  }
  const client = new SpellClient({
    ...connection,
    maxInFlight: MAX_IN_FLIGHT,
    bulkChunkSize: CHUNK_SIZE,
  });
  const started = Date.now();
  let succeeded = 0;
  await lastValueFrom(
    from(rows).pipe(
      bufferCount(CHUNK_SIZE),
      mergeMap(
        (window) =>
          client.bulk("echo", window).pipe(
            last(),
            mergeMap((snapshot) => {
              succeeded += snapshot.counts.success;
              return [snapshot];
            })
          ),
        MAX_IN_FLIGHT
      )
    )
  );
  return { wallMs: Date.now() - started, succeeded };
}

function countLines(file: string): number {
  const result = spawnSync("wc", ["-l", file], { encoding: "utf8" });
  return Number(result.stdout.trim().split(/\s+/)[0]);
}

async function main(): Promise<void> {
  if (!existsSync(BIN)) {
    console.log("building the library and the CLI (npm run build:lib, build:cli) ...");
    spawnSync("npm", ["run", "build:lib"], { cwd: ROOT, stdio: "inherit" });
    spawnSync("npm", ["run", "build:cli"], { cwd: ROOT, stdio: "inherit" });
  }
  const dir = mkdtempSync(path.join(tmpdir(), "spellrun-bench-cli-"));
  const { connection, child } = await startEmulatorProcess({
    timeScale: TIME_SCALE,
    ttlMs: 20_000,
  });
  const emulatorRss = watchPeakRss(child.pid as number);
  try {
    const input = path.join(dir, "in.csv");
    await writeInput(input);
    console.log(
      `${ROWS.toLocaleString("en")} rows, ${(statSync(input).size / 1e6).toFixed(1)} MB of CSV; windows of ${CHUNK_SIZE}, ${MAX_IN_FLIGHT} in flight; echo at time scale ${TIME_SCALE}\n`
    );

    const output = path.join(dir, "out.csv");
    const cli = await runCli(connection, input, output);
    const cliStats = await emulatorStats(connection);
    const written = countLines(output) - 1;
    await resetEmulator(connection);
    const baseline = await runInProcess(connection, input);
    const baselineStats = await emulatorStats(connection);

    const requests = (stats: { requests: Record<string, number> }) =>
      Object.entries(stats.requests)
        .filter(([, count]) => count > 0)
        .map(([endpoint, count]) => `${endpoint} ${count}`)
        .join(", ");
    const table = [
      ["", "spellrun bulk (CLI)", "client.bulk in-process"],
      ["exit code / rows ok", `${cli.code} / ${written} written`, `${baseline.succeeded} success`],
      [
        "wall time",
        `${(cli.wallMs / 1000).toFixed(1)} s`,
        `${(baseline.wallMs / 1000).toFixed(1)} s`,
      ],
      [
        "rows per second",
        `${Math.round(ROWS / (cli.wallMs / 1000))}`,
        `${Math.round(ROWS / (baseline.wallMs / 1000))}`,
      ],
      ["requests", requests(cliStats), requests(baselineStats)],
      ["peak RSS", `${cli.peakRssMb.toFixed(0)} MB (goal ≤ 200 MB)`, "(rows held in memory)"],
    ];
    for (const row of table) console.log(`${row[0].padEnd(22)}${row[1].padEnd(44)}${row[2]}`);
    console.log(`\nratio CLI / in-process wall time: ${(cli.wallMs / baseline.wallMs).toFixed(2)}`);
    console.log(
      `emulator peak RSS: ${emulatorRss.peakMb().toFixed(0)} MB (finished groups forgotten after 20 s)`
    );
    const ok = cli.code === 0 && written === ROWS && cli.peakRssMb <= 200;
    console.log(ok ? "\nOK" : "\nGOAL MISSED");
    process.exitCode = ok ? 0 : 1;
  } finally {
    emulatorRss.stop();
    child.stdin?.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
