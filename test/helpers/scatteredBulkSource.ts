import { Observable } from "rxjs";
import type { BulkResumeToken, BulkRunEntry, BulkSnapshot, RunState } from "../../src/index.js";
import type { BulkSource } from "../../taskpane/bulk/bulkRunController.js";

/** How a `scatteredBulkSource` behaves. */
export interface ScatteredBulkOptions {
  /** Polls until every run is done. */
  polls: number;
  /** Milliseconds between polls. */
  intervalMs: number;
  /** Seed of the (deterministic) choice of the runs finishing at each poll. */
  seed: number;
  /** A finished run's outputs, from its inputs. */
  outputsOf(inputs: Record<string, unknown>): Record<string, unknown>;
  /** Runs per group in the resume token (a single group when absent). */
  chunkSize?: number;
  /** Called at each poll, before its snapshot is emitted (a spec's edit mid-run). */
  onPoll?(poll: number): void;
}

/**
 * A bulk source that finishes the runs in scattered order over `polls` polls, as the service's
 * bulks do: each poll finishes a random share of the runs left, the last one all of them.
 * Counts its bulks, its polls and the time spent building snapshots (`sourceMs`, which a
 * benchmark takes out of the add-in's time).
 *
 * ## Example
 * ```ts
 * const source = scatteredBulkSource({ polls: 40, intervalMs: 5, seed: 42, outputsOf: (i) => ({ echo: i.text }) });
 * const controller = new BulkRunController(source);
 * ```
 * @param options the polls, their pace and the outputs
 * @return the source
 */
export function scatteredBulkSource(
  options: ScatteredBulkOptions
): BulkSource & { bulks: number; polls: number; sourceMs: number } {
  let seed = options.seed;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const source = {
    bulks: 0,
    polls: 0,
    sourceMs: 0,
    bulk(spellId: string, inputsList: Record<string, unknown>[]): Observable<BulkSnapshot> {
      source.bulks++;
      return new Observable<BulkSnapshot>((subscriber) => {
        const chunk = options.chunkSize ?? Math.max(1, inputsList.length);
        const chunkSizes: number[] = [];
        for (let i = 0; i < inputsList.length; i += chunk)
          chunkSizes.push(Math.min(chunk, inputsList.length - i));
        const resume: BulkResumeToken = {
          spellId,
          groupIds: chunkSizes.map((_, i) => `group-${i}`),
          chunkSizes,
        };
        const runs: BulkRunEntry[] = inputsList.map(() => ({ state: "inProgress", outputs: {} }));
        let left = runs.length;
        let poll = 0;
        const timer = setInterval(() => {
          const started = performance.now();
          poll++;
          source.polls++;
          const share = poll >= options.polls ? 1 : 1 / (options.polls - poll + 1);
          runs.forEach((run, i) => {
            if (run.state !== "inProgress" || random() >= share) return;
            runs[i] = { state: "success", outputs: options.outputsOf(inputsList[i]) };
            left--;
          });
          const counts: Record<RunState | "pending", number> = {
            pending: 0,
            inProgress: left,
            success: runs.length - left,
            failure: 0,
            error: 0,
          };
          const snapshot: BulkSnapshot = {
            groupId: "group-0",
            groupIds: resume.groupIds,
            runs: [...runs],
            done: left === 0,
            total: runs.length,
            counts,
            resume,
          };
          source.sourceMs += performance.now() - started;
          options.onPoll?.(poll);
          subscriber.next(snapshot);
          if (left === 0) {
            clearInterval(timer);
            subscriber.complete();
          }
        }, options.intervalMs);
        return () => clearInterval(timer);
      });
    },
    resumeBulk(): Observable<BulkSnapshot> {
      throw new Error("not used");
    },
  };
  return source;
}
