import { Observable, of, type Subscriber } from "rxjs";
import { RunReuse } from "../../src/runs/RunReuse.js";
import type { ResultStore, RunSnapshot } from "../../src/types.js";

/** Lets pending microtasks and promise callbacks run. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
}

describe("RunReuse", () => {
  it("should answer a call made just after a success, before the store took it, without a new run", async () => {
    let writes = 0;
    const stored = new Map<string, Record<string, unknown>>();
    // A store whose write lands a few turns later (as one over OfficeRuntime.storage).
    const store: ResultStore = {
      get: (key) => stored.get(key),
      set: async (key, outputs) => {
        await settle();
        writes++;
        stored.set(key, outputs);
      },
    };
    const reuse = new RunReuse({ ttlMs: 60_000, store });
    let sent = 0;
    let run: Subscriber<RunSnapshot> | undefined;
    const fresh = () =>
      new Observable<RunSnapshot>((subscriber) => {
        sent++;
        run = subscriber;
      });
    const first: RunSnapshot[] = [];
    reuse.run("k", fresh).subscribe((snapshot) => first.push(snapshot));
    await settle();
    run?.next({ state: "success", outputs: { text: "hi" } });
    run?.complete();
    // A recalculation at once: the write has not landed yet.
    const second: RunSnapshot[] = [];
    let completed = false;
    reuse.run("k", fresh).subscribe({
      next: (snapshot) => second.push(snapshot),
      complete: () => (completed = true),
    });
    await settle();
    await settle();

    expect(sent).toBe(1);
    expect(first).toEqual([{ state: "success", outputs: { text: "hi" } }]);
    expect(second).toEqual([{ state: "success", outputs: { text: "hi" } }]);
    expect(completed).toBeTrue();
    expect(writes).toBe(1);
  });

  it("should end only its own callers when a run cannot be built, answering the others of the same look-up", async () => {
    const reuse = new RunReuse({ ttlMs: 60_000, store: { get: () => undefined, set: () => {} } });
    const broken = new Error("cannot build this run");
    const outcomes: Record<string, unknown> = {};
    reuse
      .run("a", () => {
        throw broken;
      })
      .subscribe({ error: (error: unknown) => (outcomes.a = error) });
    reuse
      .run("b", () => of<RunSnapshot>({ state: "success", outputs: { n: 2 } }))
      .subscribe((snapshot) => (outcomes.b = snapshot.outputs));
    await settle();

    expect(outcomes.a).toBe(broken);
    expect(outcomes.b).toEqual({ n: 2 });
  });
});
