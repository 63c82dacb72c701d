import { writeFileSync } from "node:fs";
import path from "node:path";

/** The part of a DevTools CPU profile (`Profiler.stop`) read here. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * Writes the last profile and prints the 20 functions with the most self time over all.
 *
 * ## Example
 * ```ts
 * printProfile(profiles, "sheet.cpuprofile");
 * ```
 * @param profiles the profiles of the measured sheets
 * @param file where the last one is written
 */
export function printProfile(profiles: CpuProfile[], file: string): void {
  writeFileSync(file, JSON.stringify(profiles[profiles.length - 1]));
  const selfMs = new Map<string, number>();
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const deltas = profile.timeDeltas ?? [];
    (profile.samples ?? []).forEach((id, index) => {
      const frame = byId.get(id)?.callFrame;
      if (!frame) return;
      const where = `${frame.functionName || "(anonymous)"} ${path.basename(frame.url)}:${frame.lineNumber + 1}`;
      selfMs.set(where, (selfMs.get(where) ?? 0) + (deltas[index + 1] ?? 0) / 1000);
    });
  }
  console.log(`
self time over the ${profiles.length} measured sheets (profile in ${file}):`);
  for (const [where, ms] of [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`${ms.toFixed(1).padStart(9)} ms  ${where}`);
  }
}
