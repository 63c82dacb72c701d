/**
 * Browser-side access to the emulator that `npm run test:browser` starts for the Karma specs.
 *
 * The Karma runner puts the emulator's addresses and key in `__karma__.config.spellEmulator`;
 * these helpers read them and drive the emulator's control API over real HTTP.
 */
import type { EmulatorStats } from "../../emulator/emulatorStats.js";

/** Where the emulator listens, and its key, as the Karma runner passed them. */
export interface BrowserEmulator {
  baseUrl: string;
  pollBaseUrl: string;
  apiKey: string;
}

interface KarmaWindow {
  __karma__?: { config?: { spellEmulator?: BrowserEmulator } };
}

/**
 * The emulator started for this Karma run.
 *
 * @example
 * const { baseUrl, pollBaseUrl, apiKey } = emulatorForBrowser();
 */
export function emulatorForBrowser(): BrowserEmulator {
  const emulator = (globalThis as unknown as KarmaWindow).__karma__?.config?.spellEmulator;
  if (!emulator) {
    throw new Error("No emulator: run the browser specs with `npm run test:browser`.");
  }
  return emulator;
}

async function control(path: string, init: RequestInit): Promise<unknown> {
  const { baseUrl, apiKey } = emulatorForBrowser();
  const response = await fetch(`${baseUrl}/_emulator/${path}`, {
    ...init,
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
  });
  if (!response.ok) {
    throw new Error(`emulator control ${path} answered ${response.status}`);
  }
  return response.json();
}

/**
 * Clears the emulator's runs, groups and counters, and sets its faults (none when omitted).
 *
 * @example
 * beforeEach(() => resetEmulator({ runIdType: "number" }));
 */
export async function resetEmulator(faults: Record<string, unknown> = {}): Promise<void> {
  await control("reset", { method: "POST", body: JSON.stringify({ faults }) });
}

/**
 * The emulator's counters (requests per endpoint, runs created, peak in flight, ...).
 *
 * @example
 * expect((await emulatorStats()).requests.cancelBulk).toBe(1);
 */
export async function emulatorStats(): Promise<EmulatorStats> {
  return (await control("stats", { method: "GET" })) as EmulatorStats;
}
