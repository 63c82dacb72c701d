import { firstValueFrom, toArray } from "rxjs";
import {
  CustomFunctionError,
  CustomFunctionsRuntime,
} from "../../playground/functions/customFunctionsRuntime.js";
import type { CustomFunctionMetadata } from "../../playground/functions/customFunctionsRuntime.js";

const METADATA: CustomFunctionMetadata[] = [
  {
    id: "ECHO",
    name: "ECHO",
    parameters: [
      { name: "value" },
      { name: "table", dimensionality: "matrix" },
      { name: "extra", optional: true },
    ],
  },
  {
    id: "TICKS",
    name: "TICKS",
    options: { stream: true },
    parameters: [{ name: "count" }],
  },
  { id: "SLOW", name: "SLOW", options: { cancelable: true }, parameters: [] },
  { id: "PAIRS", name: "PAIRS", parameters: [{ name: "pair", repeating: true }] },
];

type Invocation = Record<string, unknown> & {
  onCanceled?: () => void;
  setResult?: (value: unknown) => void;
};

describe("CustomFunctionsRuntime (Microsoft's documented semantics)", () => {
  let runtime: CustomFunctionsRuntime;

  beforeEach(() => {
    runtime = new CustomFunctionsRuntime(METADATA, "TEST");
  });

  it("should pass one argument per parameter, a matrix as a 2-D array, an omitted one as null, then the invocation with the cell's address", async () => {
    const seen: unknown[][] = [];
    runtime.associate("ECHO", (...args: unknown[]) => {
      seen.push(args);
      return "done";
    });
    const values = await firstValueFrom(
      runtime.call("test.echo", ["a", "b"], "Sheet1!C3").pipe(toArray())
    );
    expect(values).toEqual(["done"]);
    const [value, table, extra, invocation] = seen[0] as [unknown, unknown, unknown, Invocation];
    expect(value).toBe("a");
    expect(table).toEqual([["b"]]);
    expect(extra).toBeNull();
    expect(invocation.address).toBe("Sheet1!C3");
    expect(invocation.functionName).toBe("TEST.ECHO");
    expect(invocation.isInValuePreview).toBe(false);
  });

  it("should register through the installed CustomFunctions.associate, as functions.js does", async () => {
    const target: Record<string, unknown> = {};
    const uninstall = runtime.install(target);
    const installed = target.CustomFunctions as {
      associate: (id: string, fn: (...args: unknown[]) => unknown) => void;
    };
    installed.associate("SLOW", async () => 42);
    expect(runtime.functionNames()).toEqual(["TEST.SLOW"]);
    expect(await firstValueFrom(runtime.call("TEST.SLOW", [], "Sheet1!A1"))).toBe(42);
    uninstall();
    expect(target.CustomFunctions).toBeUndefined();
  });

  it("should show every setResult of a streaming function and call onCanceled when the cell gives it up", () => {
    let invocation: Invocation | undefined;
    runtime.associate("TICKS", (_count: unknown, given: unknown) => {
      invocation = given as Invocation;
      invocation.onCanceled = jasmine.createSpy("onCanceled");
    });
    const shown: unknown[] = [];
    const subscription = runtime.call("TEST.TICKS", [3], "Sheet1!A1").subscribe((value) => {
      shown.push(value);
    });
    invocation?.setResult?.(1);
    invocation?.setResult?.([[2, 3]]);
    subscription.unsubscribe();
    invocation?.setResult?.(4); // after the cancel: not shown
    expect(shown).toEqual([1, [[2, 3]]]);
    expect(invocation?.onCanceled).toHaveBeenCalledTimes(1);
  });

  it("should not call onCanceled for a call that already settled", async () => {
    const onCanceled = jasmine.createSpy("onCanceled");
    runtime.associate("SLOW", (given: unknown) => {
      (given as Invocation).onCanceled = onCanceled;
      return Promise.resolve("ok");
    });
    const subscription = runtime.call("TEST.SLOW", [], "Sheet1!A1").subscribe();
    await Promise.resolve();
    await Promise.resolve();
    subscription.unsubscribe();
    expect(onCanceled).not.toHaveBeenCalled();
  });

  it("should show a thrown or rejected error as the cell's error value", async () => {
    runtime.associate("SLOW", () =>
      Promise.reject(new CustomFunctionError("#N/A", "Still running"))
    );
    runtime.associate("ECHO", () => {
      throw new Error("boom");
    });
    const rejected = await firstValueFrom(runtime.call("TEST.SLOW", [], "Sheet1!A1"));
    const thrown = await firstValueFrom(runtime.call("TEST.ECHO", ["x", "y"], "Sheet1!A1"));
    expect(rejected).toEqual(jasmine.objectContaining({ code: "#N/A", message: "Still running" }));
    expect(thrown).toEqual(jasmine.objectContaining({ code: "#VALUE!", message: "boom" }));
    const unknown = await firstValueFrom(runtime.call("TEST.NOPE", [], "Sheet1!A1"));
    expect(unknown).toEqual(jasmine.objectContaining({ code: "#NAME?" }));
  });

  it("should give a repeating parameter the rest of the arguments as an array, and pass isInValuePreview", async () => {
    let seen: unknown[] = [];
    runtime.associate("PAIRS", (...args: unknown[]) => {
      seen = args;
      return "";
    });
    await firstValueFrom(runtime.call("TEST.PAIRS", ["a", 1, "b"], "Sheet1!A1", { preview: true }));
    expect(seen[0]).toEqual(["a", 1, "b"]);
    expect((seen[1] as Invocation).isInValuePreview).toBe(true);
  });

  it("should count the calls that gave no value yet: until a promise settles, a stream's first value, or a cancel", async () => {
    let settle: (value: unknown) => void = () => undefined;
    runtime.associate("SLOW", () => new Promise((resolve) => (settle = resolve)));
    let tick: Invocation | undefined;
    runtime.associate("TICKS", (...args: unknown[]) => {
      tick = args[1] as Invocation;
    });
    const slow = runtime.call("TEST.SLOW", [], "Sheet1!A1");
    const settled = firstValueFrom(slow);
    expect(runtime.callsUnanswered()).toBe(1);
    settle("ready");
    expect(await settled).toBe("ready");
    expect(runtime.callsUnanswered()).toBe(0);

    const stream = runtime.call("TEST.TICKS", [3], "Sheet1!A2").subscribe();
    const cancelled = runtime.call("TEST.SLOW", [], "Sheet1!A3").subscribe();
    expect(runtime.callsUnanswered()).toBe(2);
    tick?.setResult?.(1);
    expect(runtime.callsUnanswered()).toBe(1); // a stream answered once is no longer waited for
    cancelled.unsubscribe(); // the cell emptied: nobody waits for it
    expect(runtime.callsUnanswered()).toBe(0);
    stream.unsubscribe();
    expect(runtime.callsUnanswered()).toBe(0);
  });
});
