import { loadSpells } from "../../emulator/loadSpells.js";
import type { Spell } from "../../emulator/loadSpells.js";
import { RunStore } from "../../emulator/runStore.js";

/** A store brought back from its snapshot (the in-page emulator after a reload) goes on by the clock. */
describe("RunStore.snapshot and restore", () => {
  const spells = loadSpells();
  const echoSpell = spells.get("echo") as Spell; // 200 ms
  let now: number;
  const storeAt = () =>
    new RunStore({ timeScale: 1, ttlMs: 500, bulkConcurrency: 2, now: () => now });

  beforeEach(() => (now = 1_000));

  it("should give back runs and groups, times unchanged, through JSON", () => {
    const before = storeAt();
    before.createRun(echoSpell, { a: 1 }, "r1");
    const group = before.createGroup(
      echoSpell,
      Array.from({ length: 6 }, (_, index) => ({ index })),
      "g1"
    );
    const cancelled = before.createGroup(echoSpell, [{ index: 9 }], "g2");
    now += 100;
    before.cancelGroup(cancelled);
    const after = storeAt();
    after.restore(JSON.parse(JSON.stringify(before.snapshot())), spells);

    expect(after.inFlight()).toBe(before.inFlight());
    const run = after.getRun("r1");
    expect(run && after.viewRun(run).state).toBe("inProgress");
    const again = after.getGroup("g1");
    expect(again && Array.from(again.finishAt)).toEqual(Array.from(group.finishAt));
    const stopped = after.getGroup("g2");
    expect(stopped && after.viewGroupRun(stopped, 0).outputs).toEqual({ error: "Cancelled" });
    now += 1_000;
    expect(run && after.viewRun(run)).toEqual({ state: "success", outputs: { a: 1 } });
    expect(again && after.viewGroupRun(again, 5)).toEqual(before.viewGroupRun(group, 5));
    expect(after.inFlight()).toBe(0);
  });

  it("should leave out what expired while the store was away", () => {
    const before = storeAt();
    before.createRun(echoSpell, { a: 1 }, "r1");
    before.createGroup(echoSpell, [{ index: 0 }], "g1");
    const snapshot = before.snapshot();
    now += 10_000;
    const after = storeAt();
    after.restore(snapshot, spells);
    expect(after.size).toEqual({ runs: 0, groups: 0 });
  });
});
