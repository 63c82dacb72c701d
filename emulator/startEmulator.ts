import { randomBytes } from "node:crypto";
import cors from "@fastify/cors";
import Fastify from "fastify";
import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "./emulatorContext.js";
import type { EmulatorOptions } from "./emulatorOptions.js";
import { createEmulatorStats, resetEmulatorStats } from "./emulatorStats.js";
import type { EmulatorStats } from "./emulatorStats.js";
import type { FaultOptions } from "./faultOptions.js";
import { FaultInjector } from "./faults.js";
import { installErrorHandlers, type OtherHost } from "./installErrorHandlers.js";
import { installExtraFields } from "./installExtraFields.js";
import { installJsonParser } from "./installJsonParser.js";
import { installRequestLog } from "./installRequestLog.js";
import { DEFAULT_SPELLS_FILE, loadSpells } from "./loadSpells.js";
import { registerBulkStartRoute } from "./routes/bulkStartRoute.js";
import { registerCancelBulkRoute } from "./routes/cancelBulkRoute.js";
import { registerControlRoutes } from "./routes/controlRoutes.js";
import { registerGetBulkRunsRoute } from "./routes/getBulkRunsRoute.js";
import { registerGetRunRoute } from "./routes/getRunRoute.js";
import { registerStartRoute } from "./routes/startRoute.js";
import { RunStore } from "./runStore.js";

export type { EmulatorOptions } from "./emulatorOptions.js";
export type { EmulatorStats } from "./emulatorStats.js";
export type { Endpoint, FaultOptions, LazyBulkOptions } from "./faultOptions.js";

/** The default API key of the emulator (a local development key, not a secret). */
export const DEFAULT_API_KEY = "spellrun-dev-key";

/**
 * A started emulator. `stats` is live; `close()` stops both listeners and every timer, so the
 * process can exit.
 *
 * @example
 * ```ts
 * const emulator = await startEmulator({ timeScale: 0.02 });
 * try { ... } finally { await emulator.close(); }
 * ```
 */
export interface RunningEmulator {
  /** Base host, e.g. "http://127.0.0.1:3001" (no trailing slash). */
  baseUrl: string;
  /** Poll host (getRun), e.g. "http://127.0.0.1:3002". */
  pollBaseUrl: string;
  apiKey: string;
  /** Live counters. */
  stats: EmulatorStats;
  /** Zeroes the counters (runs and groups stay). */
  resetStats(): void;
  /** Replaces every fault (unset ones are off) and reseeds the fault PRNG. */
  setFaults(faults: FaultOptions): void;
  /** Forgets every run and group now, as the service does once they expire (404 after that). */
  expireAll(): void;
  /** Stops both listeners, ends waiting requests and clears the timers. */
  close(): Promise<void>;
}

function createApp(bodyLimit: number): FastifyInstance {
  // forceCloseConnections: close() must not wait for keep-alive sockets or held wait requests.
  return Fastify({ logger: false, bodyLimit, forceCloseConnections: true });
}

async function installCommon(
  app: FastifyInstance,
  faults: FaultInjector,
  otherHost: OtherHost
): Promise<void> {
  // "*" is safe: the key travels in a header, never in a cookie, so no credentials mode.
  await app.register(cors, {
    origin: "*",
    methods: ["GET", "POST", "OPTIONS"],
    allowedHeaders: ["authorization", "x-api-key", "content-type", "accept"],
    exposedHeaders: ["retry-after"],
    maxAge: 600,
  });
  installJsonParser(app);
  installErrorHandlers(app, otherHost);
  installExtraFields(app, faults);
}

function urlOf(app: FastifyInstance, host: string): string {
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/**
 * Starts a local Spell service emulator: the base host (start, bulkStart, cancelBulk,
 * getBulkRuns, control API) and the poll host (getRun) on their own ports, sharing one
 * in-memory store. See emulator/README.md.
 *
 * @example
 * ```ts
 * const emulator = await startEmulator({ timeScale: 0.02, faults: { rate429: 0.2, seed: 1 } });
 * const response = await fetch(`${emulator.baseUrl}/spells/start`, {
 *   method: "POST",
 *   headers: { authorization: `Bearer ${emulator.apiKey}`, "content-type": "application/json" },
 *   body: JSON.stringify({ spellId: "echo", wait: true, inputs: { a: 1 } }),
 * });
 * await emulator.close();
 * ```
 * @param options Ports, key, spells file, time scale, faults, TTL, body limit.
 * @returns The running emulator.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  const ttlMs = options.ttlMs ?? 3_600_000;
  const spells = loadSpells(options.spellsFile ?? DEFAULT_SPELLS_FILE);
  const store = new RunStore({
    timeScale: options.timeScale ?? 1,
    ttlMs,
    bulkConcurrency: Math.max(1, options.bulkConcurrency ?? 50),
    ...(options.now ? { now: options.now } : {}),
  });
  const faults = new FaultInjector(options.faults ?? {});
  const stats = createEmulatorStats(store);
  let runNumber = 0;
  let groupNumber = 0;
  const context: EmulatorContext = {
    apiKey,
    spells,
    store,
    faults,
    stats,
    waitTimeoutMs: options.waitTimeoutMs ?? 120_000,
    countBulkInputs: options.countBulkInputs === true,
    dropAfterWork: new WeakSet(),
    answerAfterWork: new WeakMap(),
    pendingWaits: new Set(),
    newRunId: () => {
      runNumber++;
      return faults.options.runIdType === "number"
        ? 100_000 + runNumber
        : `run_${runNumber}_${randomBytes(4).toString("hex")}`;
    },
    newGroupId: () => `bulk_${++groupNumber}_${randomBytes(4).toString("hex")}`,
  };

  const bodyLimit = options.bodyLimitBytes ?? 5 * 1024 * 1024;
  const baseApp = createApp(bodyLimit);
  const pollApp = createApp(bodyLimit);
  // The interface shows a JSON-body form of getRun, so GET bodies are parsed on the poll host.
  pollApp.addHttpMethod("GET", { hasBody: true, overrideExisting: true });
  // A call on the wrong port says which port serves it (getRun is the only poll-host endpoint).
  await installCommon(baseApp, faults, {
    name: "poll host",
    paths: ["/spells/getRun"],
    url: () => urlOf(pollApp, host),
  });
  await installCommon(pollApp, faults, {
    name: "base host",
    paths: ["/spells/start", "/spells/bulkStart", "/spells/cancelBulk", "/spells/getBulkRuns"],
    url: () => urlOf(baseApp, host),
  });
  if (options.requestLog) {
    installRequestLog(baseApp, "base", options.requestLog);
    installRequestLog(pollApp, "poll", options.requestLog);
  }
  registerStartRoute(baseApp, context);
  registerBulkStartRoute(baseApp, context);
  registerCancelBulkRoute(baseApp, context);
  registerGetBulkRunsRoute(baseApp, context);
  registerControlRoutes(baseApp, context);
  registerGetRunRoute(pollApp, context);

  // Bounded memory: forget expired runs and groups even when nobody asks for them.
  const sweeper = setInterval(() => store.sweepExpired(), Math.min(Math.max(ttlMs / 2, 10), 1_000));
  sweeper.unref();

  const close = async (): Promise<void> => {
    clearInterval(sweeper);
    for (const abort of [...context.pendingWaits]) abort();
    await Promise.all([baseApp.close(), pollApp.close()]);
    store.clear();
  };
  try {
    await baseApp.listen({ host, port: options.port ?? 0 });
    await pollApp.listen({ host, port: options.pollPort ?? 0 });
  } catch (error) {
    await close();
    throw error;
  }
  return {
    baseUrl: urlOf(baseApp, host),
    pollBaseUrl: urlOf(pollApp, host),
    apiKey,
    stats,
    resetStats: () => resetEmulatorStats(stats),
    setFaults: (next) => faults.set(next),
    expireAll: () => store.clear(),
    close,
  };
}
