import { parseArgs } from "node:util";
import type { EmulatorOptions } from "./emulatorOptions.js";
import { ENDPOINTS } from "./faultOptions.js";
import type { Endpoint, FaultOptions } from "./faultOptions.js";

/** The CLI's help text. */
export const CLI_USAGE = `Usage: npm run emulator -- [options]   (or: npx spellrun emulator [options])

Starts the local Spell service emulator. Every option can also be set with an environment
variable: --poll-port is SPELL_EMULATOR_POLL_PORT, --rate-429 is SPELL_EMULATOR_RATE_429, and so
on (flags win). Boolean variables take 1/true/0/false.

  --port <n>                 base host port (start, bulkStart, cancelBulk, getBulkRuns)  [3001]
  --poll-port <n>            poll host port (getRun)                                    [3002]
  --api-key <key>            the accepted API key                           [spellrun-dev-key]
  --spells <file>            spells JSON file                          [emulator/spells.json]
  --time-scale <x>           multiplies every spell duration                               [1]
  --ttl-ms <ms>              finished runs and groups expire after this            [3600000]
  --body-limit <bytes>       413 above this                                        [5242880]
  --bulk-concurrency <n>     runs of one bulk group in progress at a time                 [50]
  --wait-timeout-ms <ms>     wait mode answers 504 after this                       [120000]
Faults (all off by default):
  --rate-429 <p>             probability 0..1 of 429 with Retry-After
  --retry-after <s>          Retry-After seconds on 429                                    [1]
  --rate-503 <p>             probability of 503 (nothing started)
  --rate-500-reads <p>       probability of 500 on getRun / getBulkRuns
  --latency <ms>             added latency on every request
  --drop-rate <p>            probability the connection is destroyed without a response
  --drop-phase <when>        after | before: drop after or before the run is created   [after]
  --endpoints <list>         comma list of endpoints the faults apply to               [all]
  --run-id-type <type>       string | number                                          [string]
  --lazy-bulk                bulk runs appear progressively (getBulkRuns 404s at first)
  --lazy-bulk-visible-after <ms>  how long a new group stays invisible                  [300]
  --lazy-bulk-runs-per-poll <n>   runs revealed per getBulkRuns              [ceil(total/4)]
  --extra-fields             add unknown fields to every response body
  --seed <n>                 fault PRNG seed                                               [1]
  --log                      print one line per request: method, path, status, duration, run or group id
  --help                     this text`;

const STRING_OPTIONS = [
  "port",
  "poll-port",
  "api-key",
  "spells",
  "time-scale",
  "ttl-ms",
  "body-limit",
  "bulk-concurrency",
  "wait-timeout-ms",
  "rate-429",
  "retry-after",
  "rate-503",
  "rate-500-reads",
  "latency",
  "drop-rate",
  "drop-phase",
  "endpoints",
  "run-id-type",
  "lazy-bulk-visible-after",
  "lazy-bulk-runs-per-poll",
  "seed",
] as const;
const BOOLEAN_OPTIONS = ["lazy-bulk", "extra-fields", "log", "help"] as const;

/** What the CLI should do. */
export interface CliOptions {
  help: boolean;
  /** `--log`: print a line per request. */
  log: boolean;
  options: EmulatorOptions;
}

function envName(option: string): string {
  return `SPELL_EMULATOR_${option.toUpperCase().replace(/-/g, "_")}`;
}

/**
 * Reads the CLI flags and the SPELL_EMULATOR_* environment variables (flags win) into
 * {@link EmulatorOptions}, with the CLI's defaults (ports 3001 / 3002). Throws on a bad value.
 *
 * @example
 * ```ts
 * parseCliOptions(["--rate-429", "0.2"], {}).options.faults; // { rate429: 0.2 }
 * ```
 * @param argv The arguments after the script name.
 * @param env The environment.
 */
export function parseCliOptions(argv: string[], env: NodeJS.ProcessEnv): CliOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      ...Object.fromEntries(STRING_OPTIONS.map((name) => [name, { type: "string" as const }])),
      ...Object.fromEntries(BOOLEAN_OPTIONS.map((name) => [name, { type: "boolean" as const }])),
    },
  });
  const text = (name: (typeof STRING_OPTIONS)[number]): string | undefined => {
    const value = values[name] ?? env[envName(name)];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const flag = (name: (typeof BOOLEAN_OPTIONS)[number]): boolean => {
    const value = values[name] ?? env[envName(name)];
    return value === true || (typeof value === "string" && /^(1|true|yes)$/i.test(value));
  };
  const number = (
    name: (typeof STRING_OPTIONS)[number],
    { min = 0, max = Number.MAX_SAFE_INTEGER } = {}
  ): number | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      throw new Error(`--${name} must be a number in ${min}..${max}, got "${raw}"`);
    }
    return value;
  };
  const probability = (name: (typeof STRING_OPTIONS)[number]): number | undefined =>
    number(name, { max: 1 });
  const oneOf = <T extends string>(name: (typeof STRING_OPTIONS)[number], allowed: T[]) => {
    const raw = text(name);
    if (raw !== undefined && !allowed.includes(raw as T)) {
      throw new Error(`--${name} must be one of ${allowed.join(", ")}, got "${raw}"`);
    }
    return raw as T | undefined;
  };

  const endpoints = text("endpoints")
    ?.split(",")
    .map((endpoint) => endpoint.trim()) as Endpoint[] | undefined;
  const unknownEndpoint = endpoints?.find((endpoint) => !ENDPOINTS.includes(endpoint));
  if (unknownEndpoint !== undefined) {
    throw new Error(`--endpoints: unknown "${unknownEndpoint}" (known: ${ENDPOINTS.join(", ")})`);
  }
  const visibleAfter = number("lazy-bulk-visible-after");
  const runsPerPoll = number("lazy-bulk-runs-per-poll", { min: 1 });
  const lazyTuned = visibleAfter !== undefined || runsPerPoll !== undefined;
  const faults: FaultOptions = {
    rate429: probability("rate-429"),
    retryAfterSeconds: number("retry-after"),
    rate503: probability("rate-503"),
    rate500OnReads: probability("rate-500-reads"),
    latencyMs: number("latency"),
    dropRate: probability("drop-rate"),
    dropPhase: oneOf("drop-phase", ["after", "before"]),
    endpoints,
    runIdType: oneOf("run-id-type", ["string", "number"]),
    lazyBulk: lazyTuned
      ? withoutUndefined({ groupVisibleAfterMs: visibleAfter, runsPerPoll })
      : flag("lazy-bulk") || undefined,
    extraFields: flag("extra-fields") || undefined,
    seed: number("seed", { min: -(2 ** 31) }),
  };
  const options: EmulatorOptions = {
    port: number("port", { max: 65_535 }) ?? 3001,
    pollPort: number("poll-port", { max: 65_535 }) ?? 3002,
    apiKey: text("api-key"),
    spellsFile: text("spells"),
    timeScale: number("time-scale"),
    ttlMs: number("ttl-ms"),
    bodyLimitBytes: number("body-limit", { min: 1 }),
    bulkConcurrency: number("bulk-concurrency", { min: 1 }),
    waitTimeoutMs: number("wait-timeout-ms"),
    faults: withoutUndefined(faults),
  };
  return { help: flag("help"), log: flag("log"), options: withoutUndefined(options) };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
