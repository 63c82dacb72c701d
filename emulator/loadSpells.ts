import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SPELL_BEHAVIOURS } from "./spellBehaviours.js";
import type { SpellBehaviour } from "./spellBehaviours.js";

/** A spell the emulator can run: its entry in spells.json joined with its behaviour. */
export interface Spell {
  id: string;
  name: string;
  description: string;
  inputs: string[];
  outputs: string[];
  /** Base duration before the time scale is applied. */
  durationMs: number;
  behaviour: SpellBehaviour;
}

/** The default spells file, next to this module. */
export const DEFAULT_SPELLS_FILE = fileURLToPath(new URL("./spells.json", import.meta.url));

/**
 * Reads and validates a spells file: `{ "spells": [{ id, behaviour, inputs, outputs, durationMs }] }`.
 * Throws with the file path and the offending entry, so a bad `--spells` file fails at start.
 *
 * @example
 * ```ts
 * const spells = loadSpells(DEFAULT_SPELLS_FILE);
 * spells.get("summarize")?.outputs; // ["summary", "words"]
 * ```
 * @param path Path of the JSON file.
 * @returns The spells by id.
 */
export function loadSpells(path: string = DEFAULT_SPELLS_FILE): Map<string, Spell> {
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  const entries = (parsed as { spells?: unknown } | null)?.spells;
  if (!Array.isArray(entries)) throw new Error(`${path}: expected { "spells": [...] }`);
  const spells = new Map<string, Spell>();
  entries.forEach((entry: Record<string, unknown>, index) => {
    const where = `${path}: spells[${index}]`;
    if (typeof entry?.id !== "string" || entry.id === "") throw new Error(`${where}: id missing`);
    const behaviour = SPELL_BEHAVIOURS[String(entry.behaviour ?? entry.id)];
    if (!behaviour) {
      const known = Object.keys(SPELL_BEHAVIOURS).join(", ");
      throw new Error(`${where}: unknown behaviour "${entry.behaviour}" (known: ${known})`);
    }
    const durationMs = Number(entry.durationMs ?? 0);
    if (!Number.isFinite(durationMs) || durationMs < 0) throw new Error(`${where}: bad durationMs`);
    spells.set(entry.id, {
      id: entry.id,
      name: typeof entry.name === "string" ? entry.name : entry.id,
      description: typeof entry.description === "string" ? entry.description : "",
      inputs: Array.isArray(entry.inputs) ? entry.inputs.map(String) : [],
      outputs: Array.isArray(entry.outputs) ? entry.outputs.map(String) : [],
      durationMs,
      behaviour,
    });
  });
  return spells;
}
