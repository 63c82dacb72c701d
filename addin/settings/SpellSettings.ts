import type { ServiceRoute } from "../serviceRoute.js";

/**
 * What the add-in needs to reach the Spell Run service, and how carefully it spends runs.
 * Kept in the add-in's storage (`OfficeRuntime.storage`), never in the workbook.
 *
 * ## Example
 * ```ts
 * const settings: SpellSettings = { ...DEFAULT_SETTINGS, apiKey: "sk-..." };
 * ```
 */
export interface SpellSettings {
  /** The Spell Run API key; `""` until the user sets one. */
  apiKey: string;
  /** Host of start, bulkStart, cancelBulk and getBulkRuns. */
  baseUrl: string;
  /** Host of getRun. */
  pollBaseUrl: string;
  /**
   * Through the add-in's host (its server forwards the calls, the service needs no CORS) or
   * directly to `baseUrl` / `pollBaseUrl` (the service must allow CORS). See `serviceAddresses`.
   */
  serviceRoute: ServiceRoute;
  /** Header form of the key: `Authorization: Bearer <key>` or `x-api-key: <key>`. */
  authHeader: "authorization" | "x-api-key";
  /** Runs in flight at once for the whole add-in; more formulas wait in a queue. */
  maxInFlight: number;
  /** How long a successful result is remembered and reused, in ms; 0 = not remembered. */
  rememberMs: number;
  /**
   * `SPELL.RUN` calls of one spell that Excel hands over together go out as bulk runs (one
   * bulkStart and one poll for many cells) instead of one run and poll each; `false` runs each
   * cell on its own.
   */
  batchRuns: boolean;
  /**
   * New runs `SPELL` formulas of one workbook may start within 10 minutes before the task pane
   * asks the user (further cells wait); see `DEFAULT_SPENDING_LIMITS` for why 100.
   */
  runsBeforeAsking: number;
  /** Runs one workbook may start in a day (formulas and the task pane's bulk runs). */
  dailyRunCap: number;
}
