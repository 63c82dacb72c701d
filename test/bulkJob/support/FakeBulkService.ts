import { Observable, firstValueFrom, isObservable } from "rxjs";
import {
  SpellHttpError,
  countRunStates,
  type BulkOptions,
  type BulkResumeToken,
  type BulkRunEntry,
  type BulkSnapshot,
  type SpellClient,
} from "../../../src/index.js";

/** What the fake service does with one bulkStart. */
export type StartFault =
  /** Answers 503 and creates nothing (the core's "surely nothing started"). */
  | "refuse"
  /** Creates the group, then the answer is lost (500): the start may have happened. */
  | "lose-answer";

/** One group created at the fake service. */
interface FakeGroup {
  id: string;
  inputs: Record<string, unknown>[];
  finished: boolean;
  cancelled: boolean;
}

/**
 * A service in memory for engine specs: bulkStart creates a group (counted per row inputs),
 * answers with its id on the next macrotask and finishes it on the one after. `kill()` makes it
 * a dead process's view: nothing more is sent or answered. Outputs echo the inputs, so a row
 * written with another row's outputs shows.
 *
 * ## Example
 * ```ts
 * const service = new FakeBulkService();
 * new BulkJobRunner({ client: service.client(), ... });
 * expect(service.startsOf({ id: 0 })).toBe(1);
 * ```
 */
export class FakeBulkService {
  /** Runs created per row inputs (their JSON). */
  readonly created = new Map<string, number>();
  /**
   * bulkStarts that may have left per row inputs (their JSON): counted as the chunk's intent
   * hook is called (a chunk whose hook was never called surely was not sent; once it is, the
   * engine may not be able to tell: its record may have been cut by a kill).
   */
  readonly attempted = new Map<string, number>();
  readonly groups = new Map<string, FakeGroup>();
  /** Faults of the next bulkStarts, in order. */
  readonly faults: (StartFault | undefined)[] = [];
  /** bulkStarts that reached the service. */
  starts = 0;
  /**
   * Runs per bulkStart: a bulk of more inputs goes out as several chunks, one after the other,
   * each after `BulkOptions.beforeChunkStart` (as the core's client does).
   */
  chunkSize = Number.POSITIVE_INFINITY;
  private nextGroup = 0;
  private readonly clients: FakeClient[] = [];

  /** A client of this service (one per process: `kill` silences it). */
  client(): FakeClient {
    const client = new FakeClient(this);
    this.clients.push(client);
    return client;
  }

  /** bulkStarts that may have left with a row of these inputs. */
  attemptsOf(inputs: Record<string, unknown>): number {
    return this.attempted.get(JSON.stringify(inputs)) ?? 0;
  }

  /** Runs created for a row with these inputs. */
  startsOf(inputs: Record<string, unknown>): number {
    return this.created.get(JSON.stringify(inputs)) ?? 0;
  }

  /** @internal */
  start(inputs: Record<string, unknown>[]): FakeGroup | undefined {
    const fault = this.faults.shift();
    if (fault === "refuse") return undefined;
    this.starts++;
    const group: FakeGroup = {
      id: `g${this.nextGroup++}`,
      inputs,
      finished: false,
      cancelled: false,
    };
    this.groups.set(group.id, group);
    for (const row of inputs) {
      const key = JSON.stringify(row);
      this.created.set(key, (this.created.get(key) ?? 0) + 1);
    }
    if (fault === "lose-answer") (group as FakeGroup & { lost?: boolean }).lost = true;
    return group;
  }
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The `bulk` and `resumeBulk` of one process talking to a `FakeBulkService`. */
export class FakeClient implements Pick<SpellClient, "bulk" | "resumeBulk"> {
  private dead = false;

  constructor(private readonly service: FakeBulkService) {}

  private startsLeft: number | undefined;
  private onKill: (() => void) | undefined;

  /** This process dies: nothing more leaves it, nothing reaches it. */
  kill(): void {
    this.dead = true;
  }

  /** The process dies as its `n`-th bulkStart is about to leave (that one never leaves). */
  killBeforeStart(n: number, onKill: () => void): void {
    this.startsLeft = n;
    this.onKill = onKill;
  }

  bulk(
    spellId: string,
    inputsList: readonly Record<string, unknown>[],
    options: BulkOptions = {}
  ): Observable<BulkSnapshot> {
    const size = this.service.chunkSize;
    const chunks: Record<string, unknown>[][] = [];
    for (let first = 0; first < inputsList.length; first += size) {
      chunks.push(inputsList.slice(first, first + size));
    }
    const chunkSizes = chunks.map((chunk) => chunk.length);
    return this.follow(spellId, chunkSizes, "pending", options, async (groups, named) => {
      for (const [index, chunk] of chunks.entries()) {
        for (const row of chunk) {
          const key = JSON.stringify(row);
          this.service.attempted.set(key, (this.service.attempted.get(key) ?? 0) + 1);
        }
        if (options.beforeChunkStart) {
          const hook = options.beforeChunkStart({
            spellId,
            groupIds: groups.map((group) => group.id),
            chunkSizes,
            mayHaveSent: index + 1,
          });
          await (isObservable(hook) ? firstValueFrom(hook, { defaultValue: undefined }) : hook);
        }
        await tick();
        if (this.dead) return "dead";
        if (this.startsLeft !== undefined && --this.startsLeft <= 0) {
          this.kill();
          this.onKill?.();
          return "dead";
        }
        const group = this.service.start([...chunk]);
        if (!group) throw new SpellHttpError(503, {}, "POST", "bulkStart");
        if ((group as { lost?: boolean }).lost) {
          throw new SpellHttpError(500, {}, "POST", "bulkStart");
        }
        groups.push(group);
        named();
      }
      return groups;
    });
  }

  resumeBulk(
    token: BulkResumeToken,
    _count: number,
    options: BulkOptions = {}
  ): Observable<BulkSnapshot> {
    return this.follow(token.spellId, token.chunkSizes, "unknown", options, async (groups) => {
      await tick();
      if (this.dead) return "dead";
      for (const id of token.groupIds) {
        const group = this.service.groups.get(id);
        if (!group) throw new SpellHttpError(404, {}, "GET", "getBulkRuns");
        groups.push(group);
      }
      return groups;
    });
  }

  /**
   * Snapshots of a bulk whose chunks' groups `open` collects (a snapshot as each is `named`),
   * then every group finished. Chunks without a group are `pending` in a bulk, and `error` in a
   * resumed one (the core's "Unknown" or "Not sent").
   */
  private follow(
    spellId: string,
    chunkSizes: number[],
    missing: "pending" | "unknown",
    options: BulkOptions,
    open: (groups: FakeGroup[], named: () => void) => Promise<FakeGroup[] | "dead">
  ): Observable<BulkSnapshot> {
    return new Observable<BulkSnapshot>((subscriber) => {
      let closed = false;
      let ended = false;
      const groups: FakeGroup[] = [];
      const detached = options.detach?.subscribe(() => {
        closed = true;
        subscriber.complete();
      });
      const emit = () => subscriber.next(snapshotOf(spellId, chunkSizes, groups, missing));
      const named = () => void (!this.dead && !closed && emit());
      void (async () => {
        try {
          const opened = await open(groups, named);
          if (opened === "dead" || closed) return;
          if (missing === "unknown") emit();
          await tick();
          if (this.dead || closed) return;
          for (const group of groups) if (!group.cancelled) group.finished = true;
          ended = true;
          emit();
          subscriber.complete();
        } catch (error) {
          // The core never cancels after an error: the groups stay resumable.
          ended = true;
          if (!this.dead && !closed) subscriber.error(error);
        }
      })();
      return () => {
        closed = true;
        detached?.unsubscribe();
        // Unsubscribing cancels (the core's cancelBulk); a dead process cancels nothing.
        if (ended || this.dead) return;
        for (const group of groups) if (!group.finished) group.cancelled = true;
      };
    });
  }
}

/** A snapshot of a bulk's chunks: the runs of each named group, then the `missing` ones. */
function snapshotOf(
  spellId: string,
  chunkSizes: number[],
  groups: FakeGroup[],
  missing: "pending" | "unknown"
): BulkSnapshot {
  const runs: BulkRunEntry[] = chunkSizes.flatMap((size, index) => {
    const group = groups[index];
    if (!group) {
      return Array.from({ length: size }, (): BulkRunEntry =>
        missing === "pending"
          ? { state: "pending", outputs: {} }
          : { state: "error", outputs: { error: "Unknown: this chunk had no group" } }
      );
    }
    return group.inputs.map((inputs): BulkRunEntry =>
      group.finished
        ? { state: "success", outputs: { echo: inputs } }
        : group.cancelled
          ? { state: "error", outputs: { error: "cancelled" } }
          : { state: "inProgress", outputs: {} }
    );
  });
  const ids = groups.map((group) => group.id);
  const done =
    (missing === "unknown" || groups.length === chunkSizes.length) &&
    groups.every((group) => group.finished || group.cancelled);
  return {
    groupId: ids[0] ?? "",
    groupIds: ids,
    runs,
    done,
    total: runs.length,
    counts: countRunStates(runs),
    resume: { spellId, groupIds: ids, chunkSizes },
  };
}
