/**
 * `npm test`: type-check, lint (eslint + prettier), the production build (for an example https
 * host), Node specs, Karma specs in headless Chromium, and the package as a user installs it
 * (scripts/checkPackage.ts). Every step runs even when an earlier one
 * fails, so one run shows everything; the exit code is non-zero if any step failed. Ends with
 * each runner's summary and one total line.
 *
 * The build comes before the specs because some specs check what it made (no loopback address in
 * dist/addin, the manifest against Microsoft's schemas, the add-in server running the built pages
 * in Chromium): they find it through SPELLRUN_TEST_ADDIN_BUILD, so CI builds once.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import {
  checkFailures,
  failureLines,
  jasmineFailures,
  karmaFailures,
  type FailureReport,
} from "./failureSummary";

interface Step {
  name: string;
  command: string;
  /** Reads "passed/failed" spec counts out of a runner's output, where it prints them. */
  count?: (output: string) => { passed: number; failed: number } | undefined;
  /** Reads the failed specs' names and first message lines, for the summary. */
  failures?: (output: string) => FailureReport;
}

// Runners colour their summaries; the counts are read from the plain text.
// eslint-disable-next-line no-control-regex
const plain = (output: string) => output.replace(/\u001b\[[0-9;]*m/g, "");

const jasmineCount = (output: string) => {
  const match = /(\d+) specs?, (\d+) failures?/.exec(plain(output));
  return match
    ? { passed: Number(match[1]) - Number(match[2]), failed: Number(match[2]) }
    : undefined;
};

const karmaCount = (output: string) => {
  const matches = [...plain(output).matchAll(/Executed (\d+) of (\d+)(?: \((\d+) FAILED\))?/g)];
  const last = matches[matches.length - 1];
  if (!last) return undefined;
  const failed = Number(last[3] ?? 0);
  return { passed: Number(last[1]) - failed, failed };
};

/** Where CI's production build says it is hosted: an example host, never contacted. */
const EXAMPLE_ADDIN_URL = "https://addin.example.com/";
/** The example build's manifest Id (an organisation makes its own; the repository's is for development). */
const EXAMPLE_ADDIN_ID = "e27a0de5-7e57-4b1d-9c1a-000000000027";
/** The example build's Entra ID app registration (organisation mode's <WebApplicationInfo>). */
const EXAMPLE_ENTRA_CLIENT_ID = "c1e27a0d-0000-4000-8000-000000000027";

/** How many failed specs of one step the summary names (each takes two lines). */
const FAILURES_NAMED_PER_STEP = 4;

const steps: Step[] = [
  { name: "type-check", command: "npx tsc -p tsconfig.json --noEmit" },
  { name: "lint", command: "npx eslint ." },
  { name: "import circles", command: "npx tsx scripts/checkImportCircles.ts" },
  {
    name: "build",
    command: `SPELLRUN_ADDIN_URL=${EXAMPLE_ADDIN_URL} SPELLRUN_ADDIN_ID=${EXAMPLE_ADDIN_ID} SPELLRUN_ENTRA_CLIENT_ID=${EXAMPLE_ENTRA_CLIENT_ID} npm run --silent build`,
  },
  { name: "engines", command: "npx tsx scripts/checkEngines.ts", failures: checkFailures },
  {
    name: "node specs",
    command: "npm run --silent test:node",
    count: jasmineCount,
    failures: jasmineFailures,
  },
  {
    name: "browser specs",
    command: "npm run --silent test:browser",
    count: karmaCount,
    failures: karmaFailures,
  },
  { name: "package", command: "npx tsx scripts/checkPackage.ts", failures: checkFailures },
];

/** The last `count` non-blank lines of `output`, indented and clipped, for the summary. */
function lastLines(output: string, count: number): string[] {
  const lines = plain(output)
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "");
  return lines.slice(-count).map((line) => `  | ${line.trim().slice(0, 156)}`);
}

function run(step: Step): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    console.log(`\n=== ${step.name}: ${step.command}`);
    const child = spawn(step.command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer, stream: NodeJS.WriteStream) => {
      const text = chunk.toString();
      output += text;
      stream.write(text);
    };
    child.stdout.on("data", (chunk: Buffer) => keep(chunk, process.stdout));
    child.stderr.on("data", (chunk: Buffer) => keep(chunk, process.stderr));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

async function main(): Promise<void> {
  const results: string[] = [];
  // CI keeps only the end of the output: the failed specs are named again under the summary.
  const failures: string[] = [];
  let passed = 0;
  let failed = 0;
  let failedSteps = 0;
  for (const step of steps) {
    const started = Date.now();
    const { code, output } = await run(step);
    if (step.name === "build" && code === 0) {
      process.env.SPELLRUN_TEST_ADDIN_BUILD = path.join(__dirname, "..", "dist", "addin");
    }
    const counts = step.count?.(output);
    if (counts) {
      passed += counts.passed;
      failed += counts.failed;
    }
    if (code !== 0) failedSteps += 1;
    const report = step.failures?.(output);
    if (report && (code !== 0 || report.failures.length > 0)) {
      failures.push(...failureLines(step.name, report, FAILURES_NAMED_PER_STEP));
      // A runner that crashed or was killed lists nothing: its last words say why.
      if (report.failures.length === 0) failures.push(...lastLines(output, 3));
    } else if (code !== 0) {
      // type-check, lint, build: their last lines name the error.
      failures.push(`${step.name}: failed`, ...lastLines(output, 3));
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const detail = counts ? `${counts.passed} passed, ${counts.failed} failed` : "";
    results.push(
      `${code === 0 ? "ok  " : "FAIL"}  ${step.name.padEnd(14)} ${seconds.padStart(6)} s  ${detail}`
    );
  }
  console.log(`\n=== summary\n${results.join("\n")}`);
  if (failures.length > 0) console.log(failures.join("\n"));
  // A failed step without spec counts (type-check, lint, build) still counts as one failure.
  const failedWithoutCounts = steps.filter(
    (s, i) => !s.count && results[i].startsWith("FAIL")
  ).length;
  console.log(`tests: ${passed} passed, ${failed + failedWithoutCounts} failed`);
  process.exit(failedSteps === 0 ? 0 : 1);
}

void main();
