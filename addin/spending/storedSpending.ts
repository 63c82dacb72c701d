import type { SpendingDecision, SpendingLedger } from "../spendingPolicy.js";
import { durableKeyValueStorage } from "../keyValueStorage.js";
import { MAX_CELL_STARTS } from "../changingInputsPolicy.js";
import type { StoredCellInputs } from "./CellInputHistory.js";

/**
 * What the spending guard stores per document and user in the add-in's storage (never in the
 * workbook): the decision, the day's count, and the formulas' starts within the window, so that
 * reloading the add-in does not give the threshold back.
 *
 * ## Example
 * ```ts
 * const stored: StoredSpending = { decision: "ask", day: "2026-11-26", startedToday: 3, recent: [{ at: 1, runs: 3 }] };
 * ```
 */
export interface StoredSpending {
  decision: SpendingDecision;
  day: string;
  startedToday: number;
  /** The formulas' starts within the window (the pane's are not counted there). */
  recent: SpendingLedger["recent"];
  /** The per-cell rule's memory: the `SPELL.RUN` cells' starts and the cells allowed. */
  cellInputs?: StoredCellInputs;
}

/** Where the records are, in the add-in's storage. */
export const SPENDING_STORAGE_PREFIX = "spellrun.spending.";

/** At most this many window entries are kept (they merge per millisecond; old ones drop out). */
const MAX_RECENT = 2_000;

/**
 * Reads a stored record, checked field by field (the add-in's own storage, still never trusted).
 *
 * ## Example
 * ```ts
 * const stored = await readStoredSpending(key);
 * ```
 *
 * @param key The record's key (see `identityKey`); `undefined`: nothing stored.
 * @return The record, or `undefined` when absent or malformed.
 */
export async function readStoredSpending(
  key: string | undefined
): Promise<StoredSpending | undefined> {
  if (!key) return undefined;
  try {
    const value: unknown = JSON.parse(
      (await durableKeyValueStorage().getItem(SPENDING_STORAGE_PREFIX + key)) ?? "null"
    );
    if (!value || typeof value !== "object") return undefined;
    const { decision, day, startedToday, recent, cellInputs } = value as Record<string, unknown>;
    if (decision !== "ask" && decision !== "allowWorkbook" && decision !== "block")
      return undefined;
    if (typeof day !== "string" || !Number.isSafeInteger(startedToday)) return undefined;
    return {
      decision,
      day,
      startedToday: Math.max(0, startedToday as number),
      recent: Array.isArray(recent) ? recent.filter(isStart).slice(-MAX_RECENT) : [],
      cellInputs: storedCellInputs(cellInputs),
    };
  } catch {
    return undefined;
  }
}

/**
 * Writes a record; a refusal of the storage is swallowed (the decision then holds until the
 * add-in closes).
 *
 * ## Example
 * ```ts
 * await writeStoredSpending(key, stored);
 * ```
 *
 * @param key The record's key; `undefined`: nothing is written.
 * @param stored The record.
 */
export async function writeStoredSpending(
  key: string | undefined,
  stored: StoredSpending
): Promise<void> {
  if (!key) return;
  try {
    const recent = stored.recent.slice(-MAX_RECENT);
    await durableKeyValueStorage().setItem(
      SPENDING_STORAGE_PREFIX + key,
      JSON.stringify({ ...stored, recent })
    );
  } catch {
    // Storage refused: the decision holds until the add-in closes.
  }
}

function isStart(value: unknown): value is { at: number; runs: number } {
  if (!value || typeof value !== "object") return false;
  const { at, runs } = value as Record<string, unknown>;
  return (
    typeof at === "number" &&
    Number.isFinite(at) &&
    Number.isSafeInteger(runs) &&
    (runs as number) > 0
  );
}

/** The per-cell rule's stored memory, checked entry by entry (a malformed part is dropped). */
function storedCellInputs(value: unknown): StoredCellInputs | undefined {
  if (!value || typeof value !== "object") return undefined;
  const { cells, allowedCells, blockedCells } = value as Record<string, unknown>;
  const checked: StoredCellInputs = { cells: {}, allowedCells: [] };
  if (cells && typeof cells === "object" && !Array.isArray(cells)) {
    for (const [address, starts] of Object.entries(cells as Record<string, unknown>)) {
      if (!Array.isArray(starts)) continue;
      const valid = starts.filter(isCellStart).slice(-MAX_CELL_STARTS);
      if (valid.length > 0) checked.cells[address] = valid;
    }
  }
  if (Array.isArray(allowedCells)) {
    checked.allowedCells = allowedCells.filter((address) => typeof address === "string");
  }
  if (Array.isArray(blockedCells)) {
    checked.blockedCells = blockedCells.filter((address) => typeof address === "string");
  }
  return checked;
}

function isCellStart(value: unknown): value is { at: number; input: number } {
  if (!value || typeof value !== "object") return false;
  const { at, input } = value as Record<string, unknown>;
  return typeof at === "number" && Number.isFinite(at) && Number.isSafeInteger(input);
}
