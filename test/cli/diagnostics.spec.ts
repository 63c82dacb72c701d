import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { SpellHttpError, SpellNetworkError, SpellTimeoutError } from "../../src/index.js";
import { describeServiceError } from "../../cli/errors/describeServiceError.js";
import { networkCause } from "../../cli/errors/networkCause.js";
import { startScriptedService, type ScriptedService } from "../core/support/scriptedService.js";
import { closedAddress } from "../helpers/closedAddress.js";
import { runCli } from "./support/spawnCli.js";

const KEY = "sk-diagnostics-spec-5150";

/** A fetch failure as Node's fetch reports it: a TypeError whose cause is the socket error. */
function fetchFailure(cause: Record<string, unknown>): Error {
  return new TypeError("fetch failed", {
    cause: Object.assign(new Error(String(cause.message ?? cause.code)), cause),
  });
}

describe("diagnostics that name the real cause", () => {
  const start = "http://127.0.0.1:4101/spells/start";
  const proxyEnv = { HTTP_PROXY: "http://user:secret@proxy.corp.example:3128" };

  it("should tell a refused service, a DNS failure, a dropped connection, a 413 and a time-out apart", () => {
    const refused = new SpellNetworkError(
      "POST",
      "start",
      fetchFailure({ code: "ECONNREFUSED", address: "127.0.0.1", port: 4101 }),
      start
    );
    const dns = new SpellNetworkError(
      "POST",
      "start",
      fetchFailure({ code: "ENOTFOUND", hostname: "spell.example.invalid" }),
      "https://spell.example.invalid/spells/start"
    );
    const dropped = new SpellNetworkError(
      "POST",
      "bulkStart",
      fetchFailure({ code: "UND_ERR_SOCKET", message: "other side closed" }),
      start
    );
    const tooLarge = new SpellHttpError(413, { message: "body too large" }, "POST", "bulkStart");
    const timeout = new SpellTimeoutError("GET", "getRun", 30_000, undefined, start);
    expect([refused, dns, dropped, tooLarge, timeout].map((e) => networkCause(e, {}).kind)).toEqual(
      ["refused", "dns", "dropped", "tooLarge", "timeout"]
    );
    const said = [refused, dns, dropped, tooLarge, timeout].map((e) => describeServiceError(e, {}));
    expect(said[0]).toContain("nothing answered at http://127.0.0.1:4101");
    expect(said[1]).toContain("spell.example.invalid does not resolve (DNS)");
    expect(said[2]).toContain("was closed before an answer");
    expect(said[3]).toContain("too large (HTTP 413)");
    expect(said[4]).toContain("did not answer in time");
    // Only a refused connection asks whether the service runs.
    for (const text of said.slice(1)) expect(text).not.toContain("Is the Spell service running");
  });

  it("should blame a proxy that refuses or wants credentials, never showing its password", () => {
    const proxyRefused = new SpellNetworkError(
      "POST",
      "start",
      fetchFailure({ code: "ECONNREFUSED", address: "proxy.corp.example", port: 3128 }),
      start
    );
    const proxyAuth = new SpellNetworkError(
      "POST",
      "start",
      fetchFailure({
        message: "Request was cancelled.",
        cause: Object.assign(new Error("Proxy response (407) !== 200 when HTTP Tunneling"), {
          code: "UND_ERR_ABORTED",
        }),
      }),
      start
    );
    expect(networkCause(proxyRefused, proxyEnv)).toEqual({
      kind: "proxy",
      proxy: "proxy.corp.example:3128",
    });
    expect(describeServiceError(proxyRefused, proxyEnv)).toContain(
      "the proxy proxy.corp.example:3128 (HTTPS_PROXY / HTTP_PROXY) cannot be reached"
    );
    const auth = describeServiceError(proxyAuth, proxyEnv);
    expect(auth).toContain("asks for credentials (HTTP 407)");
    for (const text of [auth, describeServiceError(proxyRefused, proxyEnv)]) {
      expect(text).not.toContain("secret");
      expect(text).not.toContain("Is the Spell service running");
    }
    // Without a proxy variable the same refusal is the service's.
    expect(networkCause(proxyRefused, {}).kind).toBe("refused");
  });

  it("should name the port actually configured in the emulator hint, not the emulator's defaults", async () => {
    const base = await closedAddress();
    const poll = await closedAddress();
    const result = await runCli(["run", "echo", "--input", "{}"], {
      PATH: process.env.PATH,
      SPELL_API_KEY: KEY,
      SPELL_BASE_URL: base,
      SPELL_POLL_BASE_URL: poll,
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`nothing answered at ${base}`);
    expect(result.stderr).toContain(`npm run emulator -- --port ${new URL(base).port}`);
    expect(result.stderr).not.toContain("3001");
    expect(result.stderr).not.toContain(KEY);
  }, 60_000);

  describe("against a scripted service", () => {
    let service: ScriptedService;
    let proxy: Server | undefined;
    afterEach(async () => {
      await service?.close();
      await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
      proxy = undefined;
    });
    const env = (extra: Record<string, string> = {}) => ({
      PATH: process.env.PATH,
      SPELL_BASE_URL: service.baseUrl,
      SPELL_POLL_BASE_URL: service.pollBaseUrl,
      SPELL_API_KEY: KEY,
      ...extra,
    });

    it("should keep a wait-mode 504's run id, print how to fetch it, and exit 5, not 'nothing started'", async () => {
      service = await startScriptedService((request) =>
        request.endpoint === "start"
          ? {
              status: 504,
              body: { message: "The run did not finish in time; poll it", runId: "r-77" },
            }
          : { body: { state: "success", outputs: { summary: "Done." } } }
      );
      const result = await runCli(["run", "summarize", "--input", '{"text":"x"}'], env());
      expect(result.code).toBe(5);
      expect(result.stderr).toContain("the run r-77 is still going on at the service");
      expect(result.stderr).toContain("spellrun get r-77");
      expect(result.stderr).not.toContain("nothing was started");
      expect(service.requests.filter((r) => r.endpoint === "start").length).toBe(1);

      // The printed command, as printed, fetches the run from the poll host and starts nothing.
      const printed = /spellrun get (\S+)/.exec(result.stderr)!;
      const fetched = await runCli(["get", printed[1], "--output", "summary"], env());
      expect(fetched.code).toBe(0);
      expect(fetched.stdout).toBe("Done.\n");
      expect(service.requests.filter((r) => r.endpoint === "start").length).toBe(1);
      expect(
        service.requests.some((r) => r.endpoint === "getRun" && r.query.get("runId") === "r-77")
      ).toBeTrue();
    }, 30_000);

    it("should say a dropped wait-mode start may have started the run (exit 5)", async () => {
      service = await startScriptedService(() => "drop");
      const result = await runCli(["run", "echo", "--input", "{}"], env());
      expect(result.code).toBe(5);
      expect(result.stderr).toContain("was closed before an answer");
      expect(result.stderr).toContain("may have been started and still be going on at the service");
      expect(result.stderr).not.toContain("Is the Spell service running");
    }, 30_000);

    it("should say a 413 is a request too large", async () => {
      service = await startScriptedService(() => ({
        status: 413,
        body: { message: "Request body is too large" },
      }));
      const result = await runCli(["run", "echo", "--input", "{}"], env());
      expect(result.code).toBe(4);
      expect(result.stderr).toContain("too large (HTTP 413)");
      expect(result.stderr).not.toContain("Is the Spell service running");
    }, 30_000);

    it("should blame a proxy that answers 407, and say that nothing reached the service", async () => {
      service = await startScriptedService(() => ({ body: { outputs: {} } }));
      proxy = createServer((socket) =>
        socket.once("data", () =>
          socket.end(
            "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\nContent-Length: 0\r\n\r\n"
          )
        )
      );
      await new Promise<void>((resolve) => proxy!.listen(0, "127.0.0.1", resolve));
      const port = (proxy.address() as AddressInfo).port;
      const result = await runCli(
        ["run", "echo", "--input", "{}"],
        env({ HTTP_PROXY: `http://127.0.0.1:${port}` })
      );
      expect(result.code).toBe(4);
      expect(result.stderr).toContain(`the proxy 127.0.0.1:${port}`);
      expect(result.stderr).toContain("asks for credentials (HTTP 407)");
      expect(result.stderr).not.toContain("Is the Spell service running");
      expect(service.requests.length).toBe(0);
    }, 30_000);
  });
});
