import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseSpells } from "./parseSpells.js";
import type { Spell } from "./parseSpells.js";

export type { Spell } from "./parseSpells.js";

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
  return parseSpells(JSON.parse(readFileSync(path, "utf8")), path);
}
