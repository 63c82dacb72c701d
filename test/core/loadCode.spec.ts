import { lastValueFrom } from "rxjs";
import {
  classifyJobFailure,
  SpellClient,
  SpellCodeLoadError,
  SpellError,
  SpellNetworkError,
} from "../../src/index.js";
import { loadCode } from "../../src/util/loadCode.js";
import { startRefused } from "../../addin/spending/startRefused.js";

/** What webpack's runtime rejects an `import()` with when the chunk's script does not load. */
function chunkLoadError(): Error {
  const error = new Error("Loading chunk 479 failed.\n(error: https://addin.example.com/479.js)");
  error.name = "ChunkLoadError";
  return error;
}

describe("loadCode (a part of the core loaded when first needed)", () => {
  it("should hand over the loaded module", async () => {
    await expectAsync(loadCode("./x.js", () => Promise.resolve({ x: 1 }))).toBeResolvedTo({ x: 1 });
  });

  it("should turn a failed load into a SpellCodeLoadError naming the module, the failure as its cause", async () => {
    const cause = chunkLoadError();
    const error = await loadCode("./runs/reusedBulk.js", () => Promise.reject(cause)).then(
      () => undefined,
      (failure: unknown) => failure
    );
    expect(error).toBeInstanceOf(SpellCodeLoadError);
    expect(error).toBeInstanceOf(SpellError);
    const loadError = error as SpellCodeLoadError;
    expect(loadError.name).toBe("SpellCodeLoadError");
    expect(loadError.module).toBe("./runs/reusedBulk.js");
    expect(loadError.cause).toBe(cause);
    expect(loadError.message).toContain("nothing was sent");
  });

  it("should class a start whose code did not load as refused (nothing started, safe to send later)", () => {
    const error = new SpellCodeLoadError("./runs/reusedBulk.js", chunkLoadError());
    expect(classifyJobFailure(error, false)).toBe("refused");
    expect(startRefused(error)).toBeTrue();
    // Any other error without an answer keeps the money-safe reading.
    expect(classifyJobFailure(chunkLoadError(), false)).toBe("mayHaveStarted");
    expect(startRefused(chunkLoadError())).toBeFalse();
    // Once a group is known the failure is about reading it, whatever it is.
    expect(classifyJobFailure(error, true)).toBe("unfinished");
  });

  it("should load the reuse code of a bulk and go on to its bulkStart (the wrapped import still loads)", async () => {
    // The loaded path still works end to end: reuse loads reusedBulk, then bulkStart fails.
    const client = new SpellClient({
      apiKey: "k",
      baseUrl: "http://127.0.0.1:9",
      pollBaseUrl: "http://127.0.0.1:9",
      retry: { limit: 0 },
      fetch: () => Promise.reject(new TypeError("fetch failed")),
    });
    await expectAsync(
      lastValueFrom(client.bulk("echo", [{ text: "a" }], { reuse: true }))
    ).toBeRejectedWith(jasmine.any(SpellNetworkError));
  });
});
