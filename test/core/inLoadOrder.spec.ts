import { defer, of, throwError, type Observable } from "rxjs";
import type { ClientParts } from "../../src/runs/ClientParts.js";
import { inLoadOrder, withModule } from "../../src/runs/inLoadOrder.js";
import { SpellCodeLoadError } from "../../src/errors/SpellCodeLoadError.js";
import { lazyModule } from "../../src/util/lazyModule.js";

/** A module whose load the spec finishes (or fails) by hand. */
function controlledModule() {
  let finish!: (module: { name: string }) => void;
  let fail!: (error: Error) => void;
  let loads = 0;
  const lazy = lazyModule(
    "./part.js",
    () =>
      new Promise<{ name: string }>((resolve, reject) => {
        loads++;
        finish = resolve;
        fail = reject;
      })
  );
  return {
    lazy,
    finish: (name: string) => finish({ name }),
    fail: (e: Error) => fail(e),
    loads: () => loads,
  };
}

/** Work that notes when it starts and emits its label. */
function work(started: string[], label: string): () => Observable<string> {
  return () =>
    defer(() => {
      started.push(label);
      return of(label);
    });
}

function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

describe("withModule and inLoadOrder", () => {
  it("should start calls in the order they were subscribed while a module loads", async () => {
    const parts = {} as ClientParts;
    const module = controlledModule();
    const started: string[] = [];
    withModule(parts, module.lazy, ({ name }) => work(started, `bulk:${name}`)()).subscribe();
    inLoadOrder(parts, work(started, "run")).subscribe();
    await settle();
    // The run subscribed after the bulk waits for the bulk's module, not only for its own turn.
    expect(started).toEqual([]);
    module.finish("m");
    await settle();
    expect(started).toEqual(["bulk:m", "run"]);
    // Nothing loading any more: a call starts at once, synchronously.
    inLoadOrder(parts, work(started, "later")).subscribe();
    expect(started).toEqual(["bulk:m", "run", "later"]);
    expect(parts.lastTurn?.finished).toBe(true);
  });

  it("should put a call made in a waiting call's error handler behind the calls made before it", async () => {
    const parts = {} as ClientParts;
    const module = controlledModule();
    const started: string[] = [];
    // The first call fails as it starts (a row too large): its handler makes a fallback call.
    withModule(parts, module.lazy, () =>
      defer(() => {
        started.push("first");
        return throwError(() => new Error("too large"));
      })
    ).subscribe({ error: () => inLoadOrder(parts, work(started, "fallback")).subscribe() });
    inLoadOrder(parts, work(started, "second")).subscribe();
    inLoadOrder(parts, work(started, "third")).subscribe();
    module.finish("m");
    await settle();
    await settle();
    expect(started).toEqual(["first", "second", "third", "fallback"]);
  });

  it("should start work with a loaded module synchronously, loading it once", async () => {
    const parts = {} as ClientParts;
    const module = controlledModule();
    const started: string[] = [];
    withModule(parts, module.lazy, () => work(started, "first")()).subscribe();
    module.finish("m");
    await settle();
    withModule(parts, module.lazy, () => work(started, "second")()).subscribe();
    expect(started).toEqual(["first", "second"]);
    expect(module.loads()).toBe(1);
  });

  it("should fail only the calls waiting for a failed load, and load again on the next call", async () => {
    const parts = {} as ClientParts;
    const module = controlledModule();
    const started: string[] = [];
    const errors: unknown[] = [];
    withModule(parts, module.lazy, () => work(started, "bulk")()).subscribe({
      error: (error: unknown) => errors.push(error),
    });
    inLoadOrder(parts, work(started, "run")).subscribe();
    const lost = new Error("chunk lost");
    module.fail(lost);
    await settle();
    // A failed load is a SpellCodeLoadError: nothing was sent, sending again is safe.
    expect(errors.length).toBe(1);
    expect(errors[0]).toBeInstanceOf(SpellCodeLoadError);
    expect((errors[0] as SpellCodeLoadError).cause).toBe(lost);
    // The plain run behind it still starts.
    expect(started).toEqual(["run"]);
    withModule(parts, module.lazy, () => work(started, "again")()).subscribe();
    expect(module.loads()).toBe(2);
    module.finish("m");
    await settle();
    expect(started).toEqual(["run", "again"]);
  });
});
