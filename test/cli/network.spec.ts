import { createServer, type AddressInfo } from "node:net";
import { startConnectProxy, type ConnectProxy } from "../helpers/startConnectProxy.js";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cliEnv, runCli, startCli, waitFor } from "./support/spawnCli.js";

const API_KEY = "sk-cli-network-5e1d2c";

describe("spellrun through a proxy", () => {
  const fixture = useEmulator({ timeScale: 0.02, apiKey: API_KEY });
  let proxy: ConnectProxy;

  afterEach(async () => {
    await proxy?.close();
  });

  it("should reach the service through HTTP_PROXY (a CONNECT tunnel per host)", async () => {
    proxy = await startConnectProxy();
    const result = await runCli(
      ["run", "echo", "--poll", "--input", '{"a":1}'],
      cliEnv(fixture.emulator, { HTTP_PROXY: proxy.url })
    );
    expect(result.code).withContext(result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ a: 1 });
    const base = new URL(fixture.emulator.baseUrl).host;
    const poll = new URL(fixture.emulator.pollBaseUrl).host;
    // The start went to the base host and the polls to the poll host, both through the proxy.
    expect(proxy.tunnels).toContain(base);
    expect(proxy.tunnels).toContain(poll);
    // No warning about undici's agent being experimental.
    expect(result.stderr).toBe("");
  }, 30_000);

  it("should take https_proxy and HTTPS_PROXY as well (lower case first)", async () => {
    proxy = await startConnectProxy();
    const result = await runCli(
      ["run", "echo", "--input", '{"b":2}'],
      // The service is http://: HTTP_PROXY is the one used; https_proxy alone is for https://.
      cliEnv(fixture.emulator, { http_proxy: proxy.url, HTTPS_PROXY: "http://127.0.0.1:9" })
    );
    expect(result.code).withContext(result.stderr).toBe(0);
    expect(proxy.tunnels.length).toBe(1);
  }, 30_000);

  it("should go directly to a host listed in NO_PROXY", async () => {
    proxy = await startConnectProxy();
    const result = await runCli(
      ["run", "echo", "--poll", "--input", '{"a":1}'],
      cliEnv(fixture.emulator, { HTTP_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" })
    );
    expect(result.code).withContext(result.stderr).toBe(0);
    expect(proxy.tunnels).toEqual([]);
  }, 30_000);

  it("should fail as a service error (exit 4) naming the request when the proxy refuses, without the key", async () => {
    proxy = await startConnectProxy(true);
    fixture.emulator.resetStats();
    const result = await runCli(
      ["run", "echo", "--input", '{"a":1}'],
      cliEnv(fixture.emulator, { HTTP_PROXY: proxy.url })
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("POST /spells/start");
    expect(result.stdout + result.stderr).not.toContain(API_KEY);
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(fixture.emulator.stats.requests.start ?? 0).toBe(0);
  }, 30_000);
});

describe("spellrun and a proxy that does not answer", () => {
  const fixture = useEmulator({ timeScale: 0.02, apiKey: API_KEY });

  it("should name the proxy, not the service, as the one not answering while it retries", async () => {
    // A port nothing listens on: the proxy is down.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const cli = startCli(
      ["run", "echo", "--input", '{"a":1}'],
      cliEnv(fixture.emulator, { HTTP_PROXY: `http://user:secret@127.0.0.1:${port}` })
    );
    await waitFor(() => cli.output().stderr.includes("retrying"), 20_000, "the notice");
    cli.child.kill("SIGINT");
    const { stderr } = await cli.exited;
    const notice = stderr.split("\n").find((line) => line.includes("retrying")) ?? "";
    expect(notice).toBe(
      `spellrun: no answer from the proxy http://127.0.0.1:${port} (HTTP_PROXY) yet, on the way to ${fixture.emulator.baseUrl}; retrying (Ctrl-C to stop)…`
    );
    expect(stderr).not.toContain("secret");
  }, 30_000);
});

describe("spellrun --verbose", () => {
  const fixture = useEmulator({ timeScale: 0.02, apiKey: API_KEY });

  it("should log each request, answer and poll on stderr, never the key", async () => {
    const result = await runCli(
      ["run", "echo", "--poll", "--verbose", "--input", '{"a":1}'],
      cliEnv(fixture.emulator)
    );
    expect(result.code).withContext(result.stderr).toBe(0);
    const lines = result.stderr.trim().split("\n");
    expect(lines[0]).toBe("spellrun: debug: sent POST /spells/start");
    expect(lines[1]).toMatch(
      /^spellrun: debug: answered POST \/spells\/start: HTTP 200 in \d+ ms, run \S+$/
    );
    expect(lines).toContain(
      jasmine.stringMatching(/^spellrun: debug: poll GET \/spells\/getRun, run \S+: success$/)
    );
    expect(result.stderr).not.toContain("body");
    expect(result.stdout + result.stderr).not.toContain(API_KEY);
  }, 30_000);

  it("should log bodies with SPELLRUN_LOG=trace, and nothing without a flag", async () => {
    const traced = await runCli(
      ["run", "echo", "--input", '{"a":"traced"}'],
      cliEnv(fixture.emulator, { SPELLRUN_LOG: "trace" })
    );
    expect(traced.code).toBe(0);
    expect(traced.stderr).toContain(
      'sent POST /spells/start body {"spellId":"echo","wait":true,"inputs":{"a":"traced"}}'
    );
    expect(traced.stderr).not.toContain(API_KEY);

    const quiet = await runCli(["run", "echo", "--input", '{"a":1}'], cliEnv(fixture.emulator));
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
  }, 30_000);
});
