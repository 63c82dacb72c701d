import type { FaultOptions } from "./faultOptions.js";

/**
 * One line naming the faults in force, for the CLI's banner.
 *
 * @example
 * ```ts
 * describeFaults({ rate429: 0.1, seed: 3 }); // "rate429=0.1 seed=3"
 * describeFaults({}); // "none"
 * ```
 */
export function describeFaults(faults: FaultOptions): string {
  const parts = Object.entries(faults)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([name, value]) => `${name}=${typeof value === "object" ? JSON.stringify(value) : value}`);
  return parts.length > 0 ? parts.join(" ") : "none";
}
