import { MinHeap } from "./minHeap.js";
import type { Spell } from "./loadSpells.js";
import type { SpellOutcome } from "./spellBehaviours.js";

/** State of a run as the service reports it. */
export type EmulatedRunState = "inProgress" | SpellOutcome["state"];

/** What getRun and getBulkRuns show of one run. */
export interface RunView {
  state: EmulatedRunState;
  outputs: Record<string, unknown>;
}

/** A single run (started by `start`). Its state is derived from the clock, never stored. */
export interface SingleRun {
  runId: string | number;
  spellId: string;
  createdAt: number;
  finishAt: number;
  outcome: SpellOutcome;
}

/** A bulk group (started by `bulkStart`). Per-run state is derived from the clock on read. */
export interface BulkGroup {
  groupId: string;
  spell: Spell;
  inputsList: Record<string, unknown>[];
  createdAt: number;
  /** finishAt[i] belongs to inputsList[i]. */
  finishAt: Float64Array;
  /** The same finish times sorted, to count finished runs with a moving pointer. */
  sortedFinishAt: Float64Array;
  finishedPointer: number;
  lastFinishAt: number;
  cancelledAt: number | undefined;
  outcomes: (SpellOutcome | undefined)[];
  /** Lazy bulk: getBulkRuns 404s before this instant, then reveals `runsPerPoll` more per poll. */
  visibleAt: number;
  runsPerPoll: number;
  revealed: number;
}

/** The outputs of every run a cancelBulk ended. */
export const CANCELLED_OUTCOME: SpellOutcome = { state: "error", outputs: { error: "Cancelled" } };

/**
 * A store's runs and groups as plain data (JSON-safe), to keep them across a restart: the
 * in-page emulator saves it in the page so a reload finds its runs, as a real service would.
 */
export interface RunStoreSnapshot {
  runs: SingleRun[];
  groups: {
    groupId: string;
    spellId: string;
    inputsList: Record<string, unknown>[];
    createdAt: number;
    finishAt: number[];
    cancelledAt: number | null;
    visibleAt: number;
    runsPerPoll: number;
    revealed: number;
  }[];
}

/** Options of {@link RunStore}. */
export interface RunStoreOptions {
  timeScale: number;
  ttlMs: number;
  bulkConcurrency: number;
  now?: () => number;
}

// Golden-ratio spread in 0.8..1.2: deterministic, and neighbours never finish together.
function durationSpread(index: number): number {
  return 0.8 + 0.4 * ((index * 0.6180339887) % 1);
}

/**
 * The emulator's in-memory state: single runs, bulk groups, the runs in flight and expiry.
 * States are computed lazily from the clock (created at t0, finished at t0 + duration), so a
 * 10,000-run bulk costs two typed arrays and no timers.
 *
 * @example
 * ```ts
 * const store = new RunStore({ timeScale: 1, ttlMs: 60_000, bulkConcurrency: 50 });
 * const run = store.createRun(spell, { text: "hi" }, "run_1_ab");
 * store.viewRun(run).state; // "inProgress"
 * ```
 */
export class RunStore {
  private readonly runs = new Map<string, SingleRun>();
  private readonly groups = new Map<string, BulkGroup>();
  private readonly singleFinishTimes = new MinHeap();
  private readonly activeGroups = new Set<BulkGroup>();
  readonly now: () => number;

  constructor(private readonly options: RunStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  /** How many single runs and groups are stored (expired ones included until swept). */
  get size(): { runs: number; groups: number } {
    return { runs: this.runs.size, groups: this.groups.size };
  }

  private durationOf(spell: Spell, inputs: Record<string, unknown>): number {
    const base = spell.behaviour.durationMs?.(inputs, spell.durationMs) ?? spell.durationMs;
    return base * this.options.timeScale;
  }

  /** Creates a single run that finishes after the spell's (scaled) duration. */
  createRun(spell: Spell, inputs: Record<string, unknown>, runId: string | number): SingleRun {
    const createdAt = this.now();
    const run: SingleRun = {
      runId,
      spellId: spell.id,
      createdAt,
      finishAt: createdAt + this.durationOf(spell, inputs),
      outcome: spell.behaviour.run(inputs, spell.inputs),
    };
    this.sweepFinished(createdAt);
    this.runs.set(String(runId), run);
    if (run.finishAt > createdAt) this.singleFinishTimes.push(run.finishAt);
    return run;
  }

  /** Finds a run by the text form of its id; expired runs are gone. */
  getRun(runIdText: string): SingleRun | undefined {
    const run = this.runs.get(runIdText);
    if (run && this.now() >= run.finishAt + this.options.ttlMs) {
      this.runs.delete(runIdText);
      return undefined;
    }
    return run;
  }

  /** What getRun shows of a run now. */
  viewRun(run: SingleRun, now: number = this.now()): RunView {
    return now < run.finishAt ? { state: "inProgress", outputs: {} } : run.outcome;
  }

  /**
   * Creates a bulk group. Runs progress `bulkConcurrency` at a time (a queue per group), each
   * with its duration spread ±20 % by index, so progress is visible and finishes are staggered.
   */
  createGroup(
    spell: Spell,
    inputsList: Record<string, unknown>[],
    groupId: string,
    lazy?: { groupVisibleAfterMs: number; runsPerPoll: number }
  ): BulkGroup {
    const createdAt = this.now();
    const count = inputsList.length;
    const workers = new Float64Array(Math.max(1, Math.min(this.options.bulkConcurrency, count)));
    workers.fill(createdAt);
    const finishAt = new Float64Array(count);
    let lastFinishAt = createdAt;
    for (let index = 0; index < count; index++) {
      let free = 0;
      for (let worker = 1; worker < workers.length; worker++) {
        if (workers[worker] < workers[free]) free = worker;
      }
      const end = workers[free] + this.durationOf(spell, inputsList[index]) * durationSpread(index);
      workers[free] = end;
      finishAt[index] = end;
      if (end > lastFinishAt) lastFinishAt = end;
    }
    const group: BulkGroup = {
      groupId,
      spell,
      inputsList,
      createdAt,
      finishAt,
      sortedFinishAt: Float64Array.from(finishAt).sort(),
      finishedPointer: 0,
      lastFinishAt,
      cancelledAt: undefined,
      outcomes: new Array(count),
      visibleAt: createdAt + (lazy?.groupVisibleAfterMs ?? 0),
      runsPerPoll: lazy ? Math.max(1, lazy.runsPerPoll) : count,
      revealed: lazy ? 0 : count,
    };
    this.sweepFinished(createdAt);
    this.groups.set(groupId, group);
    this.activeGroups.add(group);
    return group;
  }

  /** Finds a group by id; expired groups are gone. */
  getGroup(groupId: string): BulkGroup | undefined {
    const group = this.groups.get(groupId);
    if (group && this.now() >= this.groupEndAt(group) + this.options.ttlMs) {
      this.groups.delete(groupId);
      this.activeGroups.delete(group);
      return undefined;
    }
    return group;
  }

  private groupEndAt(group: BulkGroup): number {
    return group.cancelledAt ?? group.lastFinishAt;
  }

  /** What getBulkRuns shows of run `index` of a group now. */
  viewGroupRun(group: BulkGroup, index: number, now: number = this.now()): RunView {
    const finishAt = group.finishAt[index];
    const cancelledAt = group.cancelledAt;
    if (cancelledAt !== undefined && finishAt > cancelledAt) {
      return now < cancelledAt ? { state: "inProgress", outputs: {} } : CANCELLED_OUTCOME;
    }
    if (now < finishAt) return { state: "inProgress", outputs: {} };
    let outcome = group.outcomes[index];
    if (!outcome) {
      outcome = group.spell.behaviour.run(group.inputsList[index], group.spell.inputs);
      group.outcomes[index] = outcome;
    }
    return outcome;
  }

  /**
   * Ends every unfinished run of the group now (state `error`, outputs `{ error: "Cancelled" }`).
   * Idempotent: a second call finds nothing left to cancel.
   * @returns How many runs this call ended.
   */
  cancelGroup(group: BulkGroup, now: number = this.now()): number {
    if (group.cancelledAt !== undefined && group.cancelledAt <= now) return 0;
    let cancelled = 0;
    for (let index = 0; index < group.finishAt.length; index++) {
      if (group.finishAt[index] > now) cancelled++;
    }
    group.cancelledAt = now;
    this.activeGroups.delete(group);
    return cancelled;
  }

  /** Single runs in progress now. */
  singleInFlight(now: number = this.now()): number {
    this.sweepFinished(now);
    return this.singleFinishTimes.size;
  }

  /** Runs (single and bulk) in progress now. */
  inFlight(now: number = this.now()): number {
    this.sweepFinished(now);
    let count = this.singleFinishTimes.size;
    for (const group of this.activeGroups) count += group.finishAt.length - group.finishedPointer;
    return count;
  }

  private sweepFinished(now: number): void {
    const heap = this.singleFinishTimes;
    while (heap.size > 0 && (heap.peek() as number) <= now) heap.pop();
    for (const group of this.activeGroups) {
      const sorted = group.sortedFinishAt;
      while (group.finishedPointer < sorted.length && sorted[group.finishedPointer] <= now) {
        group.finishedPointer++;
      }
      if (group.finishedPointer === sorted.length) this.activeGroups.delete(group);
    }
  }

  /** Forgets runs and groups that finished more than ttlMs ago. */
  sweepExpired(now: number = this.now()): void {
    const ttlMs = this.options.ttlMs;
    for (const [key, run] of this.runs) {
      if (now >= run.finishAt + ttlMs) this.runs.delete(key);
    }
    for (const [key, group] of this.groups) {
      if (now >= this.groupEndAt(group) + ttlMs) {
        this.groups.delete(key);
        this.activeGroups.delete(group);
      }
    }
  }

  /**
   * The store's runs and groups as plain data (see {@link RunStore.restore}); outcomes of bulk
   * runs are not kept (they are computed again from the inputs, the same).
   */
  snapshot(): RunStoreSnapshot {
    return {
      runs: [...this.runs.values()],
      groups: [...this.groups.values()].map((group) => ({
        groupId: group.groupId,
        spellId: group.spell.id,
        inputsList: group.inputsList,
        createdAt: group.createdAt,
        finishAt: Array.from(group.finishAt),
        cancelledAt: group.cancelledAt ?? null,
        visibleAt: group.visibleAt,
        runsPerPoll: group.runsPerPoll,
        revealed: group.revealed,
      })),
    };
  }

  /**
   * Adds the runs and groups of a {@link RunStore.snapshot}, their times unchanged (runs went on
   * while the store was away); groups of a spell not in `spells` are left out.
   */
  restore(snapshot: RunStoreSnapshot, spells: ReadonlyMap<string, Spell>): void {
    for (const run of snapshot.runs) {
      this.runs.set(String(run.runId), run);
      this.singleFinishTimes.push(run.finishAt);
    }
    for (const saved of snapshot.groups) {
      const spell = spells.get(saved.spellId);
      if (!spell) continue;
      const finishAt = Float64Array.from(saved.finishAt);
      const group: BulkGroup = {
        groupId: saved.groupId,
        spell,
        inputsList: saved.inputsList,
        createdAt: saved.createdAt,
        finishAt,
        sortedFinishAt: Float64Array.from(finishAt).sort(),
        finishedPointer: 0,
        lastFinishAt: finishAt.reduce((last, end) => Math.max(last, end), saved.createdAt),
        cancelledAt: saved.cancelledAt ?? undefined,
        outcomes: new Array(finishAt.length),
        visibleAt: saved.visibleAt,
        runsPerPoll: saved.runsPerPoll,
        revealed: saved.revealed,
      };
      this.groups.set(group.groupId, group);
      if (group.cancelledAt === undefined) this.activeGroups.add(group);
    }
    const now = this.now();
    this.sweepFinished(now);
    this.sweepExpired(now);
  }

  /** Forgets every run and group. */
  clear(): void {
    this.runs.clear();
    this.groups.clear();
    this.singleFinishTimes.clear();
    this.activeGroups.clear();
  }
}
