import type { Observable } from "rxjs";
import { SpellClient } from "../../src/SpellClient.js";
import { SpellCodeLoadError } from "../../src/errors/SpellCodeLoadError.js";
import type { ClientParts } from "../../src/runs/ClientParts.js";
import { clientSettings } from "../../src/runs/ClientSettings.js";
import { clientCoreAccess, type ClientCore } from "../../src/runs/clientCoreAccess.js";
import { withModule } from "../../src/runs/inLoadOrder.js";
import { lazyModule } from "../../src/util/lazyModule.js";
import type { RunSnapshot } from "../../src/types.js";
import { waitUntil } from "./support/collect.js";
import { answeringService } from "./support/answeringService.js";

/** A module whose load the spec finishes (or fails) by hand; it finishes as `loaded()`. */
function controlledModule<M>(name: string, loaded: () => Promise<M>) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  let loads = 0;
  const lazy = lazyModule<M>(
    name,
    () =>
      new Promise<M>((resolve, reject) => {
        loads++;
        finish = () => resolve(loaded());
        fail = reject;
      })
  );
  return { lazy, finish: () => finish(), fail: (error: Error) => fail(error), loads: () => loads };
}

/** The real core, its load held until the spec finishes it. */
function controlledCore() {
  return controlledModule<ClientCore>(
    "./runs/clientCore.js",
    () => import("../../src/runs/clientCore.js")
  );
}

/** A single wait-mode run of `spellId` through the core, as `SpellClient.run` makes it. */
function run(spellId: string) {
  return (parts: ClientParts, { clientRun }: ClientCore): Observable<RunSnapshot> =>
    clientRun(parts, spellId, {}, {});
}

/** Subscribes and keeps what the call ends with. */
function watch(call$: Observable<RunSnapshot>): { outputs: unknown[]; errors: unknown[] } {
  const seen = { outputs: [] as unknown[], errors: [] as unknown[] };
  call$.subscribe({
    next: (snapshot) => seen.outputs.push(snapshot.outputs),
    error: (error: unknown) => seen.errors.push(error),
  });
  return seen;
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

describe("SpellClient's core, loaded with the first call", () => {
  // Node reads the core's files once; the specs hold and finish its load by hand.
  beforeAll(async () => {
    await import("../../src/runs/clientCore.js");
  });

  it("should send nothing before the core has loaded, then start the calls made meanwhile in their order, a later call waiting for an earlier call's module", async () => {
    const { started, options } = answeringService();
    const core = controlledCore();
    const access = clientCoreAccess(clientSettings(options), options, core.lazy);
    // A call that needs a second module once the core is there, as the first bulk does.
    const second = controlledModule("./runs/part.js", () => Promise.resolve({ name: "part" }));
    const first = watch(access.call(run("first")));
    const nested = watch(
      access.call((parts, module) =>
        withModule(parts, second.lazy, () => run("nested")(parts, module))
      )
    );
    const last = watch(access.call(run("last")));
    await settle();
    expect(started).toEqual([]);
    core.finish();
    await waitUntil(() => started.length > 0, "the first start");
    await settle();
    // The nested call waits for its own module; the run made after it waits behind it.
    expect(started).toEqual(["first"]);
    second.finish();
    await waitUntil(() => started.length === 3 && last.outputs.length > 0, "every start");
    expect(started).toEqual(["first", "nested", "last"]);
    expect([first.outputs, nested.outputs, last.outputs]).toEqual([
      [{ spellId: "first" }],
      [{ spellId: "nested" }],
      [{ spellId: "last" }],
    ]);
    expect(core.loads()).toBe(1);
  });

  it("should start many calls made before the core loaded in the order they were made (the last one went first)", async () => {
    const { started, options } = answeringService();
    const core = controlledCore();
    const access = clientCoreAccess(clientSettings(options), options, core.lazy);
    const names = ["a", "b", "c", "d", "e"];
    const calls = names.map((name) => watch(access.call(run(name))));
    await settle();
    expect(started).toEqual([]);
    core.finish();
    await waitUntil(() => calls.every((call) => call.outputs.length > 0), "every call's result");
    expect(started).toEqual(names);
    expect(core.loads()).toBe(1);
  });

  it("should fail the calls waiting for a core that failed to load with SpellCodeLoadError, sending nothing, and load it again on the next call", async () => {
    const { started, options } = answeringService();
    const core = controlledCore();
    const access = clientCoreAccess(clientSettings(options), options, core.lazy);
    const a = watch(access.call(run("a")));
    const b = watch(access.call(run("b")));
    const parts = access.parts().then(
      () => "loaded",
      (error: unknown) => error
    );
    const lost = new Error("chunk lost");
    core.fail(lost);
    await waitUntil(() => a.errors.length + b.errors.length === 2, "both calls' errors");
    await settle();
    for (const error of [...a.errors, ...b.errors, await parts]) {
      expect(error).toBeInstanceOf(SpellCodeLoadError);
      expect((error as SpellCodeLoadError).cause).toBe(lost);
    }
    expect(a.errors.length + b.errors.length).toBe(2);
    expect(started).toEqual([]);
    const again = watch(access.call(run("again")));
    expect(core.loads()).toBe(2);
    core.finish();
    await waitUntil(() => again.outputs.length > 0, "the run after the failed load");
    expect(started).toEqual(["again"]);
    expect(again.outputs).toEqual([{ spellId: "again" }]);
  });
});

describe("SpellClient.preload", () => {
  it("should load the core without sending anything, so that the next run is sent on subscribe", async () => {
    const { started, options } = answeringService();
    const client = new SpellClient(options);
    await client.preload();
    expect(started).toEqual([]);
    client.run("at-once", {}).subscribe();
    // Synchronously: no load to wait for any more.
    expect(started).toEqual(["at-once"]);
  });
});
