import { Observable, VirtualTimeScheduler, type Subscriber } from "rxjs";
import { SpellHttpError } from "../../src/errors/SpellHttpError.js";
import { SpellRunError } from "../../src/errors/SpellRunError.js";
import { SpellRunExpiredError } from "../../src/errors/SpellRunExpiredError.js";
import { MemoryResultStore } from "../../src/MemoryResultStore.js";
import { RunReuse } from "../../src/runs/RunReuse.js";
import { startedRunKey, type StartedRun } from "../../src/runs/StartedRun.js";
import type { ResultStore, RunSnapshot } from "../../src/types.js";

/** Lets pending microtasks and promise callbacks run. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
}

/** Moves the virtual clock on by `ms`, running what falls due. */
function advance(scheduler: VirtualTimeScheduler, ms: number): void {
  // A no-op at the target moves the clock there even when nothing else falls due.
  scheduler.schedule(() => undefined, ms);
  scheduler.maxFrames = scheduler.frame + ms;
  scheduler.flush();
}

/** A fake service: each run sent is counted, and cancelled when unsubscribed before its end. */
function fakeService() {
  const service = {
    sent: 0,
    cancelled: 0,
    resumed: [] as StartedRun[],
    run: undefined as Subscriber<RunSnapshot> | undefined,
    /** The run in flight ended (a teardown after it is no cancel). */
    ended: false,
    succeed: (outputs: Record<string, unknown>) => {
      service.ended = true;
      service.run?.next({ state: "success", outputs });
      service.run?.complete();
    },
    fresh: () =>
      new Observable<RunSnapshot>((subscriber) => {
        service.sent++;
        service.ended = false;
        service.run = subscriber;
        subscriber.next({ runId: `r${service.sent}`, state: "inProgress", outputs: {} });
        return () => {
          if (!service.ended) service.cancelled++;
        };
      }),
    resume: (started: StartedRun) =>
      new Observable<RunSnapshot>((subscriber) => {
        service.resumed.push(started);
        service.run = subscriber;
      }),
  };
  return service;
}

describe("RunReuse with runs in flight", () => {
  it("should let a caller coming back with the key within the grace watch the same run (input changed back, Undo then Redo)", async () => {
    const scheduler = new VirtualTimeScheduler();
    const reuse = new RunReuse(
      { ttlMs: 60_000, store: new MemoryResultStore(), cancelGraceMs: 10_000 },
      scheduler
    );
    const service = fakeService();
    const first = reuse.run("k", service.fresh, service.resume).subscribe();
    await settle();
    advance(scheduler, 2_000);
    // Excel cancels the cell's call: its input changed.
    first.unsubscribe();
    advance(scheduler, 2_000);
    // The input is back: the same key within the grace.
    const outputs: unknown[] = [];
    reuse.run("k", service.fresh, service.resume).subscribe((s) => outputs.push(s.outputs));
    await settle();
    advance(scheduler, 20_000);
    service.succeed({ label: "positive" });

    expect(service.sent).toBe(1);
    expect(service.cancelled).toBe(0);
    expect(outputs).toEqual([{}, { label: "positive" }]);
  });

  it("should cancel a run whose last caller did not come back within the grace, and then send the key again", async () => {
    const scheduler = new VirtualTimeScheduler();
    const reuse = new RunReuse({ ttlMs: 60_000, cancelGraceMs: 10_000 }, scheduler);
    const service = fakeService();
    reuse.run("k", service.fresh).subscribe().unsubscribe();
    await settle();
    // Left before the store answered: nothing was sent, nothing is kept.
    expect(service.sent).toBe(0);

    const call = reuse.run("k", service.fresh).subscribe();
    await settle();
    call.unsubscribe();
    advance(scheduler, 9_999);
    expect(service.cancelled).toBe(0);
    advance(scheduler, 1);
    expect(service.cancelled).toBe(1);

    reuse.run("k", service.fresh).subscribe();
    await settle();
    expect(service.sent).toBe(2);
  });

  it("should let go at once of a run not sent yet (queued), whatever the grace: never sent for a caller that left", async () => {
    const scheduler = new VirtualTimeScheduler();
    const reuse = new RunReuse({ ttlMs: 60_000, cancelGraceMs: 10_000 }, scheduler);
    let subscribed = 0;
    let letGo = 0;
    // A run waiting for a run slot: subscribed, nothing sent, `started` not called yet.
    const queued = () =>
      new Observable<RunSnapshot>(() => {
        subscribed++;
        return () => letGo++;
      });
    const call = reuse.run("k", queued).subscribe();
    await settle();
    call.unsubscribe();
    expect(subscribed).toBe(1);
    expect(letGo).toBe(1);
  });

  it("should keep a run whose request went out (started called) for the grace, though the service has not named it yet", async () => {
    const scheduler = new VirtualTimeScheduler();
    const reuse = new RunReuse({ ttlMs: 60_000, cancelGraceMs: 10_000 }, scheduler);
    let letGo = 0;
    const sending = (started: (run?: StartedRun) => void) =>
      new Observable<RunSnapshot>(() => {
        started();
        return () => letGo++;
      });
    const call = reuse.run("k", sending).subscribe();
    await settle();
    call.unsubscribe();
    expect(letGo).toBe(0);
    advance(scheduler, 10_000);
    expect(letGo).toBe(1);
  });

  it("should cancel at once when the grace is 0 (the default)", async () => {
    const reuse = new RunReuse({ ttlMs: 60_000 }, new VirtualTimeScheduler());
    const service = fakeService();
    const call = reuse.run("k", service.fresh).subscribe();
    await settle();
    call.unsubscribe();
    expect(service.cancelled).toBe(1);
  });

  it("should watch a run started before a reload instead of sending it again, and forget it once its success is stored", async () => {
    const store = new MemoryResultStore();
    const service = fakeService();
    new RunReuse({ ttlMs: 60_000, store }).run("k", service.fresh, service.resume).subscribe();
    await settle();
    expect(service.sent).toBe(1);
    expect(store.get(startedRunKey("k"))).toEqual({ startedRun: { runId: "r1" } });

    // A reload: the page's runs die with it (no unsubscribe), the store and the service stay.
    const reopened = new RunReuse({ ttlMs: 60_000, store });
    const outputs: unknown[] = [];
    reopened.run("k", service.fresh, service.resume).subscribe((s) => outputs.push(s.outputs));
    await settle();
    expect(service.sent).toBe(1);
    expect(service.resumed).toEqual([{ runId: "r1" }]);

    service.succeed({ summary: "short" });
    await settle();
    expect(outputs).toEqual([{ summary: "short" }]);
    expect(store.get("k")).toEqual({ summary: "short" });
    expect(store.get(startedRunKey("k"))).toBeUndefined();
  });

  it("should watch the run of a caller that left a moment ago, though its record is still being written (grace 0)", async () => {
    const stored = new Map<string, Record<string, unknown>>();
    // A store whose writes take a few turns (as one over OfficeRuntime.storage).
    const store: ResultStore = {
      get: (key) => stored.get(key),
      set: async (key, outputs) => {
        await settle();
        stored.set(key, outputs);
      },
      delete: (key) => void stored.delete(key),
    };
    const service = fakeService();
    const reuse = new RunReuse({ ttlMs: 60_000, store });
    const first = reuse.run("k", service.fresh, service.resume).subscribe();
    await Promise.resolve();
    expect(service.sent).toBe(1);
    first.unsubscribe();
    reuse.run("k", service.fresh, service.resume).subscribe();
    await settle();
    await settle();
    expect(service.sent).toBe(1);
    expect(service.resumed).toEqual([{ runId: "r1" }]);
  });

  it("should rejoin a row of a batched group started before a reload", async () => {
    const store = new MemoryResultStore();
    const service = fakeService();
    const row: StartedRun = { spellId: "s", groupId: "g-1", row: 3, size: 5 };
    new RunReuse({ ttlMs: 60_000, store })
      .run(
        "k",
        (started) =>
          new Observable<RunSnapshot>((subscriber) => {
            service.sent++;
            started(row);
            subscriber.next({ state: "inProgress", outputs: {} });
          }),
        service.resume
      )
      .subscribe();
    await settle();

    new RunReuse({ ttlMs: 60_000, store }).run("k", service.fresh, service.resume).subscribe();
    await settle();
    expect(service.sent).toBe(1);
    expect(service.resumed).toEqual([row]);
  });

  it("should forget a remembered run that ended in failure, so the next call sends it again", async () => {
    const store = new MemoryResultStore();
    store.set(startedRunKey("k"), { startedRun: { runId: "r0" } }, 60_000);
    const service = fakeService();
    const reuse = new RunReuse({ ttlMs: 60_000, store });
    let failed: unknown;
    reuse.run("k", service.fresh, service.resume).subscribe({ error: (e) => (failed = e) });
    await settle();
    service.run?.error(new SpellRunError("failure", {}, "r0"));
    await settle();
    expect(failed).toBeInstanceOf(SpellRunError);
    expect(store.get(startedRunKey("k"))).toBeUndefined();
    reuse.run("k", service.fresh, service.resume).subscribe();
    await settle();
    expect(service.sent).toBe(1);
  });

  it("should not send a remembered run the service no longer knows by itself: the call fails with a clear error, the next one sends", async () => {
    const store = new MemoryResultStore();
    store.set(startedRunKey("k"), { startedRun: { runId: "r0" } }, 60_000);
    const service = fakeService();
    const reuse = new RunReuse({ ttlMs: 60_000, store });
    let failed: unknown;
    reuse.run("k", service.fresh, service.resume).subscribe({ error: (e) => (failed = e) });
    await settle();
    service.run?.error(new SpellHttpError(404, "Not Found", "GET", "getRun"));
    await settle();
    expect(service.sent).toBe(0);
    expect(failed).toBeInstanceOf(SpellRunExpiredError);
    expect((failed as Error).message).toContain("no longer known to the service");
    reuse.run("k", service.fresh, service.resume).subscribe();
    await settle();
    expect(service.sent).toBe(1);
  });

  it("should keep a remembered run through a network error: the next call watches it again", async () => {
    const store = new MemoryResultStore();
    store.set(startedRunKey("k"), { startedRun: { runId: "r0" } }, 60_000);
    const service = fakeService();
    const reuse = new RunReuse({ ttlMs: 60_000, store });
    reuse.run("k", service.fresh, service.resume).subscribe({ error: () => undefined });
    await settle();
    service.run?.error(new Error("offline"));
    await settle();
    reuse.run("k", service.fresh, service.resume).subscribe();
    await settle();
    expect(service.sent).toBe(0);
    expect(service.resumed.length).toBe(2);
  });
});
