import type { Spell } from "../../emulator/parseSpells.js";

/** How long the playground's spells take: as the emulator's spells.json says, about a minute, or anything from 2 s to 90 s. */
export type SpellPace = "fast" | "minute" | "variable";

/** The paces the page offers, with their labels. */
export const SPELL_PACES: readonly { pace: SpellPace; label: string }[] = [
  { pace: "fast", label: "Fast (about a second)" },
  { pace: "minute", label: "About a minute" },
  { pace: "variable", label: "Variable (2 s to 90 s)" },
];

// A stable number in 0..1 from the inputs: the same inputs always take the same time.
function spreadOf(inputs: Record<string, unknown>): number {
  let hash = 2166136261;
  for (const char of JSON.stringify(inputs)) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  }
  return (hash >>> 0) / 4294967296;
}

/**
 * The spells with their durations following a pace the page can change at any time (runs
 * already started keep theirs): the emulator's own behaviours, only `durationMs` wrapped.
 *
 * @example
 * ```ts
 * const paced = pacedSpells(spells, () => pace);
 * ```
 * @param spells The emulator's spells (parseSpells of spells.json).
 * @param pace Reads the pace chosen now.
 */
export function pacedSpells(
  spells: ReadonlyMap<string, Spell>,
  pace: () => SpellPace
): Map<string, Spell> {
  const paced = new Map<string, Spell>();
  for (const [id, spell] of spells) {
    const own = spell.behaviour;
    paced.set(id, {
      ...spell,
      behaviour: {
        ...own,
        durationMs(inputs, baseDurationMs) {
          const base = own.durationMs?.(inputs, baseDurationMs) ?? baseDurationMs;
          const chosen = pace();
          if (chosen === "minute") return 60_000 * (0.9 + 0.2 * spreadOf(inputs));
          if (chosen === "variable") return 2_000 + 88_000 * spreadOf(inputs) ** 2;
          return base;
        },
      },
    });
  }
  return paced;
}
