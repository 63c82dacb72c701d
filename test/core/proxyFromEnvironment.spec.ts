import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import { SpellClient, SpellNetworkError, type SpellClientOptions } from "../../src/index.js";
import { proxyFromEnvironment } from "../../src/node/index.js";
import { startConnectProxy, type ConnectProxy } from "../helpers/startConnectProxy.js";
import { collect } from "./support/collect.js";

describe("proxyFromEnvironment (spellrun/node)", () => {
  let emulator: RunningEmulator;
  let proxy: ConnectProxy | undefined;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);

  function client(env: Record<string, string>): SpellClient {
    const { baseUrl, pollBaseUrl, apiKey } = emulator;
    const options: SpellClientOptions = {
      baseUrl,
      pollBaseUrl,
      apiKey,
      poll: { initialDelayMs: 20, intervalMs: 20 },
      retry: { limit: 0 },
      ...proxyFromEnvironment(env),
    };
    return new SpellClient(options);
  }

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
    process.on("warning", onWarning);
  });

  afterAll(async () => {
    process.off("warning", onWarning);
    await emulator.close();
  });

  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it("should send every request through HTTP_PROXY (a tunnel per host), printing no warning", async () => {
    proxy = await startConnectProxy();
    const result = await collect(
      client({ HTTP_PROXY: proxy.url }).run("echo", { a: 1 }, { wait: false })
    );
    expect(result.values.at(-1)?.outputs).toEqual({ a: 1 });
    expect(proxy.tunnels).toContain(new URL(emulator.baseUrl).host);
    expect(proxy.tunnels).toContain(new URL(emulator.pollBaseUrl).host);
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((warning) => warning.message)).toEqual([]);
  });

  it("should take the lower-case variable first, and go directly to the hosts of NO_PROXY", async () => {
    proxy = await startConnectProxy();
    const lower = await collect(
      client({ http_proxy: proxy.url, HTTP_PROXY: "http://127.0.0.1:9" }).run("echo", { b: 2 })
    );
    expect(lower.completed).toBeTrue();
    expect(proxy.tunnels.length).toBe(1);
    const direct = await collect(
      client({ HTTP_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" }).run("echo", { c: 3 })
    );
    expect(direct.completed).toBeTrue();
    expect(proxy.tunnels.length).toBe(1);
  });

  it("should fail as a network error when the proxy refuses, and send nothing to the service", async () => {
    proxy = await startConnectProxy(true);
    emulator.resetStats();
    const result = await collect(
      client({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url }).run("echo", {})
    );
    expect(result.error).toBeInstanceOf(SpellNetworkError);
    expect(emulator.stats.requests.start).toBe(0);
  });

  it("should leave the platform's fetch without a proxy variable", () => {
    expect(proxyFromEnvironment({})).toEqual({});
    expect(proxyFromEnvironment({ NO_PROXY: "example.com" })).toEqual({});
  });
});
