/** This bundle's copy of the values it has looked up. */
const knownValues = new Map<string, unknown>();

/**
 * One value per JavaScript realm, shared by every bundle loaded into it.
 *
 * The add-in page loads two bundles (functions.js and taskpane.js) into one shared runtime; each
 * bundle has its own copy of these modules, so a module-level variable would exist twice (two
 * clients, two in-flight limits, two result stores overwriting each other's index). A
 * `Symbol.for` slot on `globalThis` is the same in both.
 *
 * ## Example
 * ```ts
 * const listeners = runtimeSingleton("settingsListeners", () => new Set<() => void>());
 * ```
 *
 * @param name Slot name, unique within spellrun.
 * @param create Makes the value the first time.
 * @return The realm's value for `name`.
 */
export function runtimeSingleton<T>(name: string, create: () => T): T {
  // A realm's value is never replaced: once seen, this bundle keeps it at hand (thousands of
  // cells ask for the shared client and the guard in one recalculation).
  const known = knownValues.get(name);
  if (known !== undefined) return known as T;
  const slot = Symbol.for(`spellrun.${name}`);
  const realm = globalThis as unknown as Record<symbol, T | undefined>;
  let value = realm[slot];
  if (value === undefined) {
    value = create();
    realm[slot] = value;
  }
  knownValues.set(name, value);
  return value;
}
