import { Observable } from "rxjs";
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
  readonly groups = new Map<string, FakeGroup>();
  /** Faults of the next bulkStarts, in order. */
  readonly faults: (StartFault | undefined)[] = [];
  /** bulkStarts that reached the service. */
  starts = 0;
  private nextGroup = 0;
  private readonly clients: FakeClient[] = [];

  /** A client of this service (one per process: `kill` silences it). */
  client(): FakeClient {
    const client = new FakeClient(this);
    this.clients.push(client);
    return client;
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
    return this.follow(spellId, options, async () => {
      await tick();
      if (this.dead) return "dead";
      if (this.startsLeft !== undefined && --this.startsLeft <= 0) {
        this.kill();
        this.onKill?.();
        return "dead";
      }
      const group = this.service.start([...inputsList]);
      if (!group) throw new SpellHttpError(503, {}, "POST", "bulkStart");
      if ((group as { lost?: boolean }).lost) {
        throw new SpellHttpError(500, {}, "POST", "bulkStart");
      }
      return group;
    });
  }

  resumeBulk(
    token: BulkResumeToken,
    _count: number,
    options: BulkOptions = {}
  ): Observable<BulkSnapshot> {
    return this.follow(token.spellId, options, async () => {
      await tick();
      if (this.dead) return "dead";
      const group = this.service.groups.get(token.groupIds[0]);
      if (!group) throw new SpellHttpError(404, {}, "GET", "getBulkRuns");
      return group;
    });
  }

  private follow(
    spellId: string,
    options: BulkOptions,
    open: () => Promise<FakeGroup | "dead">
  ): Observable<BulkSnapshot> {
    return new Observable<BulkSnapshot>((subscriber) => {
      let closed = false;
      let group: FakeGroup | undefined;
      const detached = options.detach?.subscribe(() => {
        closed = true;
        subscriber.complete();
      });
      void (async () => {
        try {
          const opened = await open();
          if (opened === "dead" || closed) return;
          group = opened;
          subscriber.next(snapshotOf(spellId, group));
          await tick();
          if (this.dead || closed) return;
          if (!group.cancelled) group.finished = true;
          subscriber.next(snapshotOf(spellId, group));
          subscriber.complete();
        } catch (error) {
          if (!this.dead && !closed) subscriber.error(error);
        }
      })();
      return () => {
        closed = true;
        detached?.unsubscribe();
        // Unsubscribing cancels (the core's cancelBulk); a dead process cancels nothing.
        if (group && !group.finished && !this.dead) group.cancelled = true;
      };
    });
  }
}

function snapshotOf(spellId: string, group: FakeGroup): BulkSnapshot {
  const runs: BulkRunEntry[] = group.inputs.map((inputs) =>
    group.finished
      ? { state: "success", outputs: { echo: inputs } }
      : group.cancelled
        ? { state: "error", outputs: { error: "cancelled" } }
        : { state: "inProgress", outputs: {} }
  );
  const done = group.finished || group.cancelled;
  return {
    groupId: group.id,
    groupIds: [group.id],
    runs,
    done,
    total: runs.length,
    counts: countRunStates(runs),
    resume: { spellId, groupIds: [group.id], chunkSizes: [runs.length] },
  };
}
