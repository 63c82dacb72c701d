import { keyValueStorage } from "../../addin/keyValueStorage.js";

/** Storage key of the recent spell ids (the add-in's storage, next to the settings). */
const RECENT_SPELLS_KEY = "spellrun.recentSpells";
/** How many spell ids are remembered. */
export const MAX_RECENT_SPELLS = 8;

/**
 * The spell ids used most recently, newest first.
 *
 * ## Example
 * ```ts
 * const ids = await recentSpells(); // ["summarize", "sentiment"]
 * ```
 */
export async function recentSpells(): Promise<string[]> {
  try {
    const stored: unknown = JSON.parse(
      (await keyValueStorage().getItem(RECENT_SPELLS_KEY)) ?? "[]"
    );
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Puts a spell id first in the recent list (kept to `MAX_RECENT_SPELLS`).
 *
 * ## Example
 * ```ts
 * await rememberSpell("summarize");
 * ```
 */
export async function rememberSpell(spellId: string): Promise<string[]> {
  const id = spellId.trim();
  if (!id) return recentSpells();
  const ids = [id, ...(await recentSpells()).filter((other) => other !== id)].slice(
    0,
    MAX_RECENT_SPELLS
  );
  await keyValueStorage().setItem(RECENT_SPELLS_KEY, JSON.stringify(ids));
  return ids;
}
