import type { EmulatorContext } from "../../emulator/emulatorContext.js";
import { createEmulatorStats, type EmulatorStats } from "../../emulator/emulatorStats.js";
import { FaultInjector } from "../../emulator/faults.js";
import { parseSpells } from "../../emulator/parseSpells.js";
import { registerBulkStartRoute } from "../../emulator/routes/bulkStartRoute.js";
import { registerCancelBulkRoute } from "../../emulator/routes/cancelBulkRoute.js";
import { registerControlRoutes } from "../../emulator/routes/controlRoutes.js";
import { registerGetBulkRunsRoute } from "../../emulator/routes/getBulkRunsRoute.js";
import { registerGetRunRoute } from "../../emulator/routes/getRunRoute.js";
import { registerStartRoute } from "../../emulator/routes/startRoute.js";
import { RunStore } from "../../emulator/runStore.js";
import spellsJson from "../../emulator/spells.json";
import { FORWARDING_PREFIXES } from "../../src/http/serviceEndpoints.js";
import { InPageRoutes } from "./inPageRoutes.js";
import { forgetSavedRuns, loadSavedRuns, saveRuns } from "./savedRuns.js";
import { pacedSpells, type SpellPace } from "./spellPace.js";

/** The emulator running in the page (the static playground). */
export interface InPageEmulator {
  /** The key the page's settings start with (a local development key, not a secret). */
  apiKey: string;
  /** The emulator's store: runs in flight, for the page's "leave?" warning. */
  store: RunStore;
  /** What the emulator counted since the page opened (runs started, requests), for the specs. */
  stats: EmulatorStats;
  /** Changes how long the next runs take. */
  setPace(pace: SpellPace): void;
  /** Forgets every run, here and in the page's storage ("Reset to demo"). */
  forgetRuns(): void;
  /** Takes the page's fetch back. */
  uninstall(): void;
}

function randomHex(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Starts the Spell service emulator inside the page: the emulator's own store, spells,
 * behaviours, faults and route functions (emulator/), with the page's `fetch` answering the
 * add-in's calls "through the add-in's host" (`/spell-api/…` and `/spell-poll/…` of the page's
 * origin) instead of sockets. Install it before the add-in's bundles load: they keep the `fetch`
 * they find. Its runs are kept in the page's storage (savedRuns.ts) and found again after a
 * reload, times unchanged, as a real service keeps its runs while Excel reloads.
 *
 * @example
 * ```ts
 * const emulator = installInPageEmulator({ apiKey: "spellrun-dev-key" });
 * emulator.setPace("minute");
 * ```
 */
export function installInPageEmulator(options: {
  apiKey: string;
  pace?: SpellPace;
}): InPageEmulator {
  let pace: SpellPace = options.pace ?? "fast";
  const store = new RunStore({ timeScale: 1, ttlMs: 3_600_000, bulkConcurrency: 50 });
  const faults = new FaultInjector({});
  const spells = pacedSpells(parseSpells(spellsJson, "emulator/spells.json"), () => pace);
  const saved = loadSavedRuns();
  let runNumber = saved?.runNumber ?? 0;
  let groupNumber = saved?.groupNumber ?? 0;
  if (saved) store.restore(saved.store, spells);
  const context: EmulatorContext = {
    apiKey: options.apiKey,
    spells,
    store,
    faults,
    stats: createEmulatorStats(store),
    waitTimeoutMs: 120_000,
    countBulkInputs: false,
    dropAfterWork: new WeakSet(),
    answerAfterWork: new WeakMap(),
    pendingWaits: new Set(),
    newRunId: () => `run_${++runNumber}_${randomHex()}`,
    newGroupId: () => `bulk_${++groupNumber}_${randomHex()}`,
  };
  const base = new InPageRoutes();
  const poll = new InPageRoutes();
  registerStartRoute(base.asFastify(), context);
  registerBulkStartRoute(base.asFastify(), context);
  registerCancelBulkRoute(base.asFastify(), context);
  registerGetBulkRunsRoute(base.asFastify(), context);
  registerControlRoutes(base.asFastify(), context);
  registerGetRunRoute(poll.asFastify(), context);
  const sweeper = setInterval(() => store.sweepExpired(), 60_000);
  // Saved soon after a request that can change the store, and at once when the page goes.
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let forgotten = false;
  const save = () => {
    if (saveTimer !== undefined) clearTimeout(saveTimer);
    saveTimer = undefined;
    if (!forgotten) saveRuns({ store: store.snapshot(), runNumber, groupNumber });
  };
  const saveSoon = () => {
    if (saveTimer === undefined && !forgotten) saveTimer = setTimeout(save, 200);
  };
  globalThis.addEventListener?.("pagehide", save);

  const pageFetch = globalThis.fetch;
  const origin = globalThis.location.origin;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const address =
      typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(address, globalThis.location.href);
    const host =
      url.origin !== origin
        ? undefined
        : url.pathname.startsWith(`${FORWARDING_PREFIXES.base}/`)
          ? { routes: base, prefix: FORWARDING_PREFIXES.base }
          : url.pathname.startsWith(`${FORWARDING_PREFIXES.poll}/`)
            ? { routes: poll, prefix: FORWARDING_PREFIXES.poll }
            : undefined;
    // The page is no organisation's gateway: the add-in's question about it is answered here,
    // so a static host's 404 never shows as a failed load in the console.
    if (url.origin === origin && url.pathname === "/org/config") {
      return new Response(JSON.stringify({ mode: "pass-through" }), {
        headers: { "content-type": "application/json" },
      });
    }
    if (!host) return pageFetch(input, init);
    const request = input instanceof Request ? input : undefined;
    const signal = init?.signal ?? request?.signal ?? undefined;
    if (signal?.aborted) throw new DOMException("The operation was aborted.", "AbortError");
    const body =
      typeof init?.body === "string" ? init.body : request ? await request.text() : undefined;
    if (host.routes === base) saveSoon();
    const answer = host.routes.answer({
      method: (init?.method ?? request?.method ?? "GET").toUpperCase(),
      path: url.pathname.slice(host.prefix.length) + url.search,
      headers: new Headers(init?.headers ?? request?.headers),
      body,
      signal,
    });
    if (!signal) return answer;
    return Promise.race([
      answer,
      new Promise<never>((_, reject) =>
        signal.addEventListener(
          "abort",
          () => reject(new DOMException("The operation was aborted.", "AbortError")),
          { once: true }
        )
      ),
    ]);
  };

  return {
    apiKey: options.apiKey,
    store,
    stats: context.stats,
    setPace: (next) => (pace = next),
    forgetRuns: () => {
      forgotten = true;
      if (saveTimer !== undefined) clearTimeout(saveTimer);
      store.clear();
      forgetSavedRuns();
    },
    uninstall: () => {
      clearInterval(sweeper);
      save();
      globalThis.removeEventListener?.("pagehide", save);
      for (const abort of [...context.pendingWaits]) abort();
      globalThis.fetch = pageFetch;
    },
  };
}
