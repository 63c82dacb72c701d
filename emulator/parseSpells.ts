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

/**
 * Validates the parsed content of a spells file: `{ "spells": [{ id, behaviour, inputs, outputs,
 * durationMs }] }`. Throws naming `source` and the offending entry. Free of Node's file system,
 * so the playground's in-page emulator reads the same spells.json.
 *
 * @example
 * ```ts
 * const spells = parseSpells(JSON.parse(text), "spells.json");
 * spells.get("summarize")?.outputs; // ["summary", "words"]
 * ```
 * @param parsed The file's JSON.
 * @param source What to name in errors (the file's path).
 * @returns The spells by id.
 */
export function parseSpells(parsed: unknown, source: string): Map<string, Spell> {
  const entries = (parsed as { spells?: unknown } | null)?.spells;
  if (!Array.isArray(entries)) throw new Error(`${source}: expected { "spells": [...] }`);
  const spells = new Map<string, Spell>();
  entries.forEach((entry: Record<string, unknown>, index) => {
    const where = `${source}: spells[${index}]`;
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
