import { SpellClient } from "../../src/index.js";
import { startScriptedService } from "./support/scriptedService.js";

describe("SpellClient with one AbortSignal shared by many calls", () => {
  it("should abort 2,000 runOutputs without a listener warning and send nothing after the abort", async () => {
    // A service that never answers a start: every run holds its slot until the abort.
    const service = await startScriptedService(() => "hang");
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      let fetches = 0;
      const countingFetch: typeof fetch = (input, init) => {
        fetches++;
        return fetch(input, init);
      };
      const client = new SpellClient({
        apiKey: "k",
        baseUrl: service.baseUrl,
        pollBaseUrl: service.pollBaseUrl,
        fetch: countingFetch,
      });
      const controller = new AbortController();
      const calls = Array.from({ length: 2000 }, (_, i) =>
        client
          .runOutputs("echo", { i }, { wait: false, signal: controller.signal })
          .catch((error: unknown) => error)
      );
      // Wait until the first runs are at the service (the rest queued behind the limit).
      while (service.requests.length < 8) await new Promise((resolve) => setTimeout(resolve, 10));
      const sentBeforeAbort = fetches;
      controller.abort(new Error("user left"));
      const results = await Promise.all(calls);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await new Promise((resolve) => setImmediate(resolve));

      expect(results.every((result) => (result as Error).message === "user left")).toBe(true);
      expect(fetches).toBe(sentBeforeAbort);
      expect(service.requests.length).toBe(sentBeforeAbort);
      expect(warnings.map((warning) => warning.message)).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await service.close();
    }
  });
});
