import { EmulatorError } from "../emulatorError.js";
import type { EmulatorContext } from "../emulatorContext.js";
import type { Spell } from "../loadSpells.js";

/**
 * The spell with this id, or a 404 `spell_not_found` whose message lists the spells there are.
 *
 * @example
 * ```ts
 * const spell = findSpell(context, "summarize");
 * ```
 */
export function findSpell(context: EmulatorContext, spellId: string): Spell {
  const spell = context.spells.get(spellId);
  if (!spell) {
    const known = [...context.spells.keys()].join(", ");
    throw new EmulatorError(
      404,
      "spell_not_found",
      `Unknown spell "${spellId}"; this emulator has: ${known}`
    );
  }
  return spell;
}
