import { loadSpells } from "../../emulator/loadSpells.js";
import type { Spell } from "../../emulator/loadSpells.js";
import { RunStore } from "../../emulator/runStore.js";

describe("RunStore", () => {
  const spells = loadSpells();
  const sleepSpell = spells.get("sleep") as Spell;
  const echoSpell = spells.get("echo") as Spell; // 200 ms
  let now: number;
  let store: RunStore;

  beforeEach(() => {
    now = 1_000;
    store = new RunStore({ timeScale: 1, ttlMs: 500, bulkConcurrency: 2, now: () => now });
  });

  it("should derive a single run's state from the clock", () => {
    const run = store.createRun(echoSpell, { a: 1 }, "r1");
    expect(store.viewRun(run)).toEqual({ state: "inProgress", outputs: {} });
    now += 199;
    expect(store.viewRun(run).state).toBe("inProgress");
    now += 1;
    expect(store.viewRun(run)).toEqual({ state: "success", outputs: { a: 1 } });
  });

  it("should scale durations by timeScale", () => {
    const fast = new RunStore({ timeScale: 0.1, ttlMs: 500, bulkConcurrency: 2, now: () => now });
    const run = fast.createRun(sleepSpell, { ms: 1_000 }, "r1");
    expect(run.finishAt - run.createdAt).toBe(100);
  });

  it("should queue bulk runs bulkConcurrency at a time with staggered finishes", () => {
    const group = store.createGroup(
      echoSpell,
      Array.from({ length: 6 }, (_, index) => ({ index })),
      "g1"
    );
    const finishes = Array.from(group.finishAt).map((finish) => finish - 1_000);
    expect(new Set(finishes).size).toBe(6); // no two finish together
    for (const finish of finishes) expect(finish).toBeGreaterThanOrEqual(160); // ≥ 0.8 × 200
    expect(Math.max(...finishes)).toBeGreaterThan(400); // 3 waves of 2
    expect(Math.max(...finishes)).toBeLessThanOrEqual(720); // ≤ 3 × 1.2 × 200
    expect(store.inFlight()).toBe(6);
    now = 1_000 + Math.min(...finishes);
    expect(store.inFlight()).toBe(5);
    expect(store.viewGroupRun(group, finishes.indexOf(Math.min(...finishes))).state).toBe(
      "success"
    );
  });

  it("should cancel unfinished runs only, once", () => {
    const group = store.createGroup(sleepSpell, [{ ms: 10 }, { ms: 1_000 }, { ms: 1_000 }], "g1");
    now += 50;
    expect(store.cancelGroup(group)).toBe(2);
    expect(store.viewGroupRun(group, 0)).toEqual({ state: "success", outputs: { slept: 10 } });
    expect(store.viewGroupRun(group, 1)).toEqual({
      state: "error",
      outputs: { error: "Cancelled" },
    });
    now += 5_000;
    expect(store.viewGroupRun(group, 2)).toEqual({
      state: "error",
      outputs: { error: "Cancelled" },
    });
    expect(store.cancelGroup(group)).toBe(0);
    expect(store.inFlight()).toBe(0);
  });

  it("should count singles and bulk runs in flight exactly", () => {
    store.createRun(sleepSpell, { ms: 100 }, "a");
    store.createRun(sleepSpell, { ms: 300 }, "b");
    store.createRun(sleepSpell, { ms: 0 }, "c"); // finished at once, never in flight
    store.createGroup(sleepSpell, [{ ms: 100 }, { ms: 100 }, { ms: 100 }], "g");
    expect(store.singleInFlight()).toBe(2);
    expect(store.inFlight()).toBe(5);
    now += 100;
    expect(store.singleInFlight()).toBe(1);
    now += 200;
    expect(store.inFlight()).toBe(0);
  });

  it("should sweep expired runs and groups without being asked for them", () => {
    store.createRun(echoSpell, {}, "a");
    store.createGroup(echoSpell, [{}], "g");
    store.createRun(sleepSpell, { ms: 10_000 }, "long");
    now += 600; // finished 400 ms ago: kept
    store.sweepExpired();
    expect(store.size).toEqual({ runs: 2, groups: 1 });
    now += 400; // finished 800 ms ago: gone; the long run is still in progress
    store.sweepExpired();
    expect(store.size).toEqual({ runs: 1, groups: 0 });
    expect(store.getRun("long")).toBeDefined();
  });

  it("should end a failing spell in failure and an erroring one in error", () => {
    const failing = store.createRun(spells.get("always-fails") as Spell, {}, "f");
    const erroring = store.createRun(spells.get("always-errors") as Spell, {}, "e");
    now += 10_000;
    expect(store.viewRun(failing).state).toBe("failure");
    expect(store.viewRun(erroring).state).toBe("error");
  });
});
